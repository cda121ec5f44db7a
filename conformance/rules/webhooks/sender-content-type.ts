// sender-content-type: the body is JSON (section 6.1.1 of the platform's interface document), but the
// exact Content-Type value is designed (register WH-004): advice, not a failure. At most a UTF-8
// charset parameter.
import { deliveryRules } from 'storefront-contract';
import type { Rule } from '../model.js';
import type { SenderObservations } from '../../webhooks/observations.js';
import { perDelivery, quote, singleHeader } from '../shared/webhooks.js';

export const senderContentType: Rule<SenderObservations> = {
  id: 'sender-content-type',
  target: 'webhook-sender',
  severity: 'warning',
  source: { kind: 'designed', ref: 'spec/asyncapi/schemas/DeliveryHeaders.yaml#/properties/Content-Type' },
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
