// Authentic bytes that are not a valid delivery (malformed JSON, invalid UTF-8, a schema violation,
// payload ids that contradict the envelope) are refused, not processed.
import type { ReceiverObservations, WebhookRule } from '../../webhooks/types.js';
import { is2xx, perProbe } from './util.js';

export const receiverRejectsBadContent: WebhookRule<ReceiverObservations> = {
  id: 'receiver-rejects-bad-content',
  target: 'receiver',
  summary: 'A correctly signed body that is not a valid WebhookEnvelope is not answered 2XX.',
  check: (o) => perProbe(o.probes, ['bad-content'], (p) => (is2xx(p.status) ? [`answered ${p.status}: invalid content was accepted`] : [])),
};
