// Seed 6.2 and 9: the User-Agent of every delivery is the contract's, which carries the contract version.
import { deliveryRules } from '../../../generated/webhooks/catalog.js';
import type { SenderObservations, WebhookRule } from '../../webhooks/types.js';
import { perDelivery, quote, singleHeader } from './util.js';

export const senderUserAgent: WebhookRule<SenderObservations> = {
  id: 'sender-user-agent',
  target: 'sender',
  summary: `User-Agent is ${deliveryRules.userAgent}.`,
  check: (o) =>
    perDelivery(o.deliveries, (d) => {
      const problems: string[] = [];
      const value = singleHeader(d, 'User-Agent', problems);
      if (value !== undefined && value !== deliveryRules.userAgent) problems.push(`User-Agent is ${quote(value)}, expected ${quote(deliveryRules.userAgent)}`);
      return problems;
    }),
};
