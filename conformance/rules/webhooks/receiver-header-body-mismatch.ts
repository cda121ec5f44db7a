// Seed 6.2: the X-SVC-* headers are not signed, so a receiver compares them with the signed body and
// refuses a delivery where they disagree (or one is missing).
import type { ReceiverObservations, WebhookRule } from '../../webhooks/types.js';
import { is2xx, perProbe } from './util.js';

export const receiverHeaderBodyMismatch: WebhookRule<ReceiverObservations> = {
  id: 'receiver-header-body-mismatch',
  target: 'receiver',
  summary: 'A delivery whose X-SVC-Event / X-SVC-Event-ID / X-SVC-Delivery-ID disagree with the signed body is not answered 2XX.',
  check: (o) => perProbe(o.probes, ['header-mismatch'], (p) => (is2xx(p.status) ? [`answered ${p.status}: the header/body mismatch was accepted`] : [])),
};
