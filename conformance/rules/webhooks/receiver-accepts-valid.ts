// receiver-accepts-valid: a subscriber answers a valid, signed delivery with a 2XX, for every event type
// of the catalog (section 4.5 of the platform's interface document).
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { is2xx, perProbe, statusText } from '../shared/webhooks.js';

export const receiverAcceptsValid: Rule<ReceiverObservations> = {
  id: 'receiver-accepts-valid',
  target: 'webhook-receiver',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 4.5' },
  summary: 'A valid signed delivery of each event type is answered 2XX.',
  check: (o) => perProbe(o.probes, ['valid'], (p) => (is2xx(p.status) ? [] : [`answered ${statusText(p)}, expected 2XX`])),
};
