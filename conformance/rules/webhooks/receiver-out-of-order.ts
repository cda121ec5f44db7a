// receiver-out-of-order: deliveries may arrive out of order (section 6.1.2 of the platform's interface
// document). An update older than one already applied is acknowledged (2XX; the receiver skips it by
// payload.timestamp), not failed into retries.
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { is2xx, perProbe, statusText } from '../shared/webhooks.js';

export const receiverOutOfOrder: Rule<ReceiverObservations> = {
  id: 'receiver-out-of-order',
  target: 'webhook-receiver',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 6.1.2' },
  summary: 'An older update delivered after a newer one is answered 2XX.',
  check: (o) => perProbe(o.probes, ['out-of-order'], (p) => (is2xx(p.status) ? [] : [`answered ${statusText(p)}, expected 2XX`])),
};
