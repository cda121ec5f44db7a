// receiver-oversized-body: a receiver bounds what it reads, so an oversized body is refused with 413
// (before it is all buffered). The platform's interface document sets no size limit: this is the
// receiver kit's design, advice only.
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { perProbe, statusText } from '../shared/webhooks.js';

export const receiverOversizedBody: Rule<ReceiverObservations> = {
  id: 'receiver-oversized-body',
  target: 'webhook-receiver',
  severity: 'warning',
  source: { kind: 'designed', ref: 'docs/guides/receiving-webhooks.md#what-the-receiver-answers' },
  summary: 'An oversized body (8 MiB by default, --oversize-bytes) is answered 413.',
  check: (o) => perProbe(o.probes, ['oversize'], (p) => (p.status === 413 ? [] : [`answered ${statusText(p)}, expected 413`])),
};
