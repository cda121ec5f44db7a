// receiver-no-5xx-on-bad-input: any non-2XX makes the sender retry, and a 5XX says "my fault, try again"
// (section 3.2 of the platform's interface document): a receiver that crashes on hostile input turns it
// into retries and hides real failures. Bad input gets a 4XX.
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { perProbe } from '../shared/webhooks.js';

export const receiverNo5xxOnBadInput: Rule<ReceiverObservations> = {
  id: 'receiver-no-5xx-on-bad-input',
  target: 'webhook-receiver',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 3.2' },
  summary: 'Bad signatures, bad content, mismatched headers and oversized bodies get a 4XX, never a 5XX.',
  check: (o) =>
    perProbe(o.probes, ['bad-signature', 'bad-content', 'header-mismatch', 'raw-bytes', 'oversize'], (p) => {
      if (p.expect === '2XX') return [];
      return p.status !== null && p.status >= 500 ? [`answered ${p.status}`] : [];
    }),
};
