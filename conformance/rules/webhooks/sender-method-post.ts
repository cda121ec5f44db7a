// sender-method-post: every delivery is an HTTP POST (section 6.1.1 of the platform's interface document).
import { deliveryRules } from 'storefront-contract';
import type { Rule } from '../model.js';
import type { SenderObservations } from '../../webhooks/observations.js';
import { perDelivery } from '../shared/webhooks.js';

export const senderMethodPost: Rule<SenderObservations> = {
  id: 'sender-method-post',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 6.1.1' },
  summary: `Every delivery is an HTTP ${deliveryRules.method}.`,
  check: (o) => perDelivery(o.deliveries, (d) => (d.method === deliveryRules.method ? [] : [`method is ${d.method}, expected ${deliveryRules.method}`])),
};
