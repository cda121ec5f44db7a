// receiver-rejects-bad-signature: a missing, malformed or non-matching X-SVC-Signature is rejected
// (sections 5.5 and 7 of the platform's interface document); the probes are the receiver kit's negative
// vectors: wrong prefix or case, wrong length, flipped byte, wrong or rotated-out secret, ...
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { is2xx, perProbe } from '../shared/webhooks.js';

export const receiverRejectsBadSignature: Rule<ReceiverObservations> = {
  id: 'receiver-rejects-bad-signature',
  target: 'webhook-receiver',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 5.5, 7' },
  summary: 'A delivery with a missing, malformed or wrong signature is not answered 2XX.',
  check: (o) => perProbe(o.probes, ['bad-signature'], (p) => (is2xx(p.status) ? [`answered ${p.status}: the bad signature was accepted`] : [])),
};
