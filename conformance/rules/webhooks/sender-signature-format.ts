// sender-signature-format: X-SVC-Signature is `sha256=` + lowercase hex, exactly the contract's pattern,
// sent once (section 5.5 of the platform's interface document). Upper-case hex or another prefix is a
// defect even when the digest is right: strict receivers refuse it.
import { deliveryRules } from 'storefront-contract';
import type { Rule } from '../model.js';
import type { SenderObservations } from '../../webhooks/observations.js';
import { perDelivery, quote, singleHeader } from '../shared/webhooks.js';

const pattern = new RegExp(deliveryRules.signature.pattern);

export const senderSignatureFormat: Rule<SenderObservations> = {
  id: 'sender-signature-format',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 5.5' },
  summary: `${deliveryRules.signature.header} is sent once and matches ${deliveryRules.signature.pattern}.`,
  check: (o) =>
    perDelivery(o.deliveries, (d) => {
      const problems: string[] = [];
      const value = singleHeader(d, deliveryRules.signature.header, problems);
      if (value !== undefined && !pattern.test(value)) {
        const hint = /^sha256=[0-9a-fA-F]{64}$/.test(value) ? ' (hex digits must be lowercase)' : '';
        problems.push(`${deliveryRules.signature.header} ${quote(value.slice(0, 16) + (value.length > 16 ? '…' : ''))} does not match ${deliveryRules.signature.pattern}${hint}`);
      }
      return problems;
    }),
};
