// receiver-no-5xx-on-bad-input: a 5XX says "my fault, try again": a receiver that crashes on hostile input
// hides real failures behind it. Advice only (designed): the platform asks a receiver to reject a bad
// signature (section 7 of its interface document) and retries any answer that is not 2XX (section 3.2),
// but does not say with which status; the receiver kit answers bad input with a 4XX.
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { perProbe } from '../shared/webhooks.js';

export const receiverNo5xxOnBadInput: Rule<ReceiverObservations> = {
  id: 'receiver-no-5xx-on-bad-input',
  target: 'webhook-receiver',
  severity: 'warning',
  source: { kind: 'designed', ref: 'docs/guides/receiving-webhooks.md#what-the-receiver-answers' },
  summary: 'Bad signatures, bad content, mismatched headers and oversized bodies get a 4XX, never a 5XX (advice: the contract asks only that they are not acknowledged).',
  check: (o) =>
    perProbe(o.probes, ['bad-signature', 'bad-content', 'header-mismatch', 'raw-bytes', 'oversize'], (p) => {
      if (p.expect === '2XX') return [];
      return p.status !== null && p.status >= 500 ? [`answered ${p.status}`] : [];
    }),
};
