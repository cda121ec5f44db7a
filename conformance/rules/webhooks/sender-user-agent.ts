// sender-user-agent: the User-Agent of every delivery is the contract's, which carries the contract
// version (sections 6.2 and 9 of the platform's interface document).
import { deliveryRules } from 'storefront-contract';
import type { Rule } from '../model.js';
import type { SenderObservations } from '../../webhooks/observations.js';
import { perDelivery, quote, singleHeader } from '../shared/webhooks.js';

export const senderUserAgent: Rule<SenderObservations> = {
  id: 'sender-user-agent',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 6.2, 9' },
  summary: `User-Agent is ${deliveryRules.userAgent}.`,
  check: (o) =>
    perDelivery(o.deliveries, (d) => {
      const problems: string[] = [];
      const value = singleHeader(d, 'User-Agent', problems);
      if (value !== undefined && value !== deliveryRules.userAgent) problems.push(`User-Agent is ${quote(value)}, expected ${quote(deliveryRules.userAgent)}`);
      return problems;
    }),
};
