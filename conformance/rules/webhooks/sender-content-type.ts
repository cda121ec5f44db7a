// The body is JSON (seed 6.1.1); the contract's content type, with at most a UTF-8 charset parameter.
import { deliveryRules } from '../../../generated/webhooks/catalog.js';
import type { SenderObservations, WebhookRule } from '../../webhooks/types.js';
import { perDelivery, quote, singleHeader } from './util.js';

export const senderContentType: WebhookRule<SenderObservations> = {
  id: 'sender-content-type',
  target: 'sender',
  summary: `Content-Type is ${deliveryRules.contentType} (a charset parameter, if any, is utf-8).`,
  check: (o) =>
    perDelivery(o.deliveries, (d) => {
      const problems: string[] = [];
      const value = singleHeader(d, 'Content-Type', problems);
      if (value === undefined) return problems;
      const [essence, ...params] = value.split(';').map((p) => p.trim().toLowerCase());
      if (essence !== deliveryRules.contentType) problems.push(`Content-Type is ${quote(value)}, expected ${deliveryRules.contentType}`);
      for (const p of params) if (!/^charset="?utf-8"?$/.test(p)) problems.push(`Content-Type parameter ${quote(p)} is not charset=utf-8`);
      return problems;
    }),
};
