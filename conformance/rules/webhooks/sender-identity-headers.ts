// sender-identity-headers: X-SVC-Event, X-SVC-Event-ID and X-SVC-Delivery-ID are sent once each and equal
// the signed body's event, event_id and delivery_id (section 6.2 of the platform's interface document;
// the headers are not signed, so receivers compare them).
import { deliveryRules } from 'storefront-contract';
import type { Rule } from '../model.js';
import type { SenderObservations } from '../../webhooks/observations.js';
import { field, perDelivery, quote, singleHeader } from '../shared/webhooks.js';

const PAIRS = [
  [deliveryRules.headers.event, 'event'],
  [deliveryRules.headers.eventId, 'event_id'],
  [deliveryRules.headers.deliveryId, 'delivery_id'],
] as const;

export const senderIdentityHeaders: Rule<SenderObservations> = {
  id: 'sender-identity-headers',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 6.2' },
  summary: `${PAIRS.map(([h]) => h).join(', ')} are present once and equal the body's ${PAIRS.map(([, f]) => f).join(', ')}.`,
  check: (o) =>
    perDelivery(o.deliveries, (d) => {
      const problems: string[] = [];
      for (const [header, name] of PAIRS) {
        const value = singleHeader(d, header, problems);
        if (value === undefined || d.body === undefined) continue;
        const body = field(d.body, name);
        if (value !== body) problems.push(`${header} is ${quote(value)} but the body's ${name} is ${quote(body)}`);
      }
      return problems;
    }),
};
