// receiver-header-body-mismatch: the X-SVC-* headers are not signed, so a receiver compares them with the
// signed body and refuses a delivery where they disagree or one is missing (section 6.2 of the
// platform's interface document).
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { is2xx, perProbe } from '../shared/webhooks.js';

export const receiverHeaderBodyMismatch: Rule<ReceiverObservations> = {
  id: 'receiver-header-body-mismatch',
  target: 'webhook-receiver',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 6.2' },
  summary: 'A delivery whose X-SVC-Event / X-SVC-Event-ID / X-SVC-Delivery-ID disagree with the signed body is not answered 2XX.',
  check: (o) => perProbe(o.probes, ['header-mismatch'], (p) => (is2xx(p.status) ? [`answered ${p.status}: the header/body mismatch was accepted`] : [])),
};
