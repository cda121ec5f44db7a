// Seed 5.5 and 7: a missing, malformed or non-matching X-SVC-Signature is rejected (the receiver kit's
// negative vectors: wrong prefix or case, wrong length, flipped byte, wrong or rotated-out secret, ...).
import type { ReceiverObservations, WebhookRule } from '../../webhooks/types.js';
import { is2xx, perProbe } from './util.js';

export const receiverRejectsBadSignature: WebhookRule<ReceiverObservations> = {
  id: 'receiver-rejects-bad-signature',
  target: 'receiver',
  summary: 'A delivery with a missing, malformed or wrong signature is not answered 2XX.',
  check: (o) => perProbe(o.probes, ['bad-signature'], (p) => (is2xx(p.status) ? [`answered ${p.status}: the bad signature was accepted`] : [])),
};
