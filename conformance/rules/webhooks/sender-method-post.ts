// Seed 6.1.1: every delivery is an HTTP POST.
import { deliveryRules } from '../../../generated/webhooks/catalog.js';
import type { SenderObservations, WebhookRule } from '../../webhooks/types.js';
import { perDelivery } from './util.js';

export const senderMethodPost: WebhookRule<SenderObservations> = {
  id: 'sender-method-post',
  target: 'sender',
  summary: `Every delivery is an HTTP ${deliveryRules.method}.`,
  check: (o) => perDelivery(o.deliveries, (d) => (d.method === deliveryRules.method ? [] : [`method is ${d.method}, expected ${deliveryRules.method}`])),
};
