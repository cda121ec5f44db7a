// sender-signature-raw-body: the signature is the HMAC-SHA256 of the raw bytes sent, keyed with the
// subscription's secret (section 5.5 of the platform's interface document). Checked over the exact bytes
// received. When it does not match, the rule tries the usual mistake (signing a re-serialisation of the
// body) so the report can say what the sender did. Hex case is left to sender-signature-format, so each
// defect is named by one rule.
import { createHmac } from 'node:crypto';
import { deliveryRules } from 'storefront-contract';
import type { Rule } from '../model.js';
import type { SenderObservations } from '../observations/webhooks.js';
import { headerValues, perDelivery } from '../shared/webhooks.js';

const digest = (secret: string, bytes: Buffer | string) => createHmac('sha256', secret).update(bytes).digest('hex');

export const senderSignatureRawBody: Rule<SenderObservations> = {
  id: 'sender-signature-raw-body',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 5.5' },
  summary: `${deliveryRules.signature.header} is the HMAC-SHA256 of the exact bytes sent, keyed with the subscription secret.`,
  check: (o) =>
    perDelivery(o.deliveries, (d) => {
      const value = headerValues(d, deliveryRules.signature.header)[0];
      if (value === undefined) return [`no ${deliveryRules.signature.header} header to verify`];
      const given = value.replace(/^sha256=/i, '').toLowerCase();
      if (given === digest(o.secret, d.raw)) return [];
      if (d.body !== undefined) {
        for (const [what, text] of [
          ['compact JSON.stringify', JSON.stringify(d.body)],
          ['indented JSON.stringify', JSON.stringify(d.body, null, 2)],
        ] as const) {
          // Not claimed when the re-serialisation reads as the bytes sent (bytes that are not UTF-8 decode to
          // the same text): the signature then simply does not match the bytes.
          if (text !== d.raw.toString('utf8') && given === digest(o.secret, text)) {
            return [`signature is over a re-serialisation of the body (${what}), not over the ${d.raw.length} bytes sent`];
          }
        }
      }
      return [`signature does not match the ${d.raw.length} bytes received with the subscription secret`];
    }),
};
