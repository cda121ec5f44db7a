// receiver-idempotent: delivery is at least once; receivers de-duplicate on event_id (section 6.1.2 of
// the platform's interface document). A duplicate and a replay are acknowledged with 2XX (an error would
// only bring more retries) and processed once. Only --probe-url makes "processed once" observable:
// without it the rule is skipped, never passed.
import { combine, problem, skip, type Judgement, type Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { is2xx, perProbe, statusText } from '../shared/webhooks.js';

export const NO_PROBE_URL = 'no --probe-url given: idempotency cannot be observed';

function processedOnce(o: ReceiverObservations): Judgement {
  if (o.probeError) return [problem('probe endpoint', `the probe endpoint could not be read: ${o.probeError}`)];
  if (!o.processed) return skip(NO_PROBE_URL);
  return o.duplicateEventIds.flatMap((id) => {
    const n = o.processed!.get(id) ?? 0;
    return n === 1 ? [] : [problem(`processed count of ${id}`, `processed ${n} times after an original, a duplicate and a replay; expected once`)];
  });
}

export const receiverIdempotent: Rule<ReceiverObservations> = {
  id: 'receiver-idempotent',
  target: 'webhook-receiver',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 6.1.2' },
  summary: 'A duplicate and a replay of an event are answered 2XX and processed once (observable with --probe-url).',
  check: (o) => combine([perProbe(o.probes, ['duplicate'], (p) => (is2xx(p.status) ? [] : [`answered ${statusText(p)}, expected 2XX`])), processedOnce(o)]),
};
