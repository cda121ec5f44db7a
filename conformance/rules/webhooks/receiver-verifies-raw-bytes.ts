// receiver-verifies-raw-bytes: the receiver computes the signature over the raw bytes received, never
// over a re-serialisation of the parsed body (section 5.5 of the platform's interface document). Two
// probes are authentic bytes that JSON.stringify would change (must be 2XX); two are forgeries signed
// over the re-serialisation (must not be 2XX).
import type { Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { is2xx, perProbe, statusText } from '../shared/webhooks.js';

export const receiverVerifiesRawBytes: Rule<ReceiverObservations> = {
  id: 'receiver-verifies-raw-bytes',
  target: 'webhook-receiver',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 5.5' },
  summary: 'The signature is verified over the raw bytes: authentic non-canonical JSON is accepted, bytes signed only in re-serialised form are refused.',
  check: (o) =>
    perProbe(o.probes, ['raw-bytes'], (p) => {
      if (p.expect === '2XX') return is2xx(p.status) ? [] : [`answered ${statusText(p)}: authentic bytes refused (is the signature computed over re-serialised JSON?)`];
      return is2xx(p.status) ? [`answered ${p.status}: accepted bytes whose signature only matches their re-serialisation`] : [];
    }),
};
