// receiver-header-body-mismatch: the X-SVC-* headers are not signed, so a receiver compares them with the
// signed body and refuses a delivery where they disagree or one is missing. Advice only (designed): the
// platform states what the sender puts in the headers (section 6.2 of its interface document), not that a
// receiver must check them; the receiver kit does (docs/guides/receiving-webhooks.md).
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { is2xx, perProbe } from '../shared/webhooks.js';

export const receiverHeaderBodyMismatch: Rule<ReceiverObservations> = {
  id: 'receiver-header-body-mismatch',
  target: 'webhook-receiver',
  severity: 'warning',
  source: { kind: 'designed', ref: 'docs/guides/receiving-webhooks.md#what-the-receiver-answers' },
  summary: 'A delivery whose X-SVC-Event / X-SVC-Event-ID / X-SVC-Delivery-ID disagree with the signed body is not answered 2XX (advice: the headers are not signed; the contract requires only the signature check).',
  check: (o) => perProbe(o.probes, ['header-mismatch'], (p) => (is2xx(p.status) ? [`answered ${p.status}: the header/body mismatch was accepted`] : [])),
};
