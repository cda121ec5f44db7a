// receiver-test-delivery: a test delivery (is_test true, section 4.4 of the platform's interface document)
// is a delivery, answered 2XX like any other (section 4.5). That it is not acted on as a business event is
// advice (designed: the platform says what marks a test delivery, not what a receiver does with it; the
// receiver kit hands it to onTest only). Only --probe-url makes "not acted on" observable: without it that
// part is skipped, never passed.
import { advisory, combine, skip, type Judgement, type Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';
import { is2xx, perProbe, statusText } from '../shared/webhooks.js';

function notProcessed(o: ReceiverObservations): Judgement {
  if (o.probeError) return [advisory('probe endpoint', `the probe endpoint could not be read: ${o.probeError}`)];
  if (!o.processed) return skip('no --probe-url given: whether the test delivery was processed cannot be observed');
  return o.testEventIds.flatMap((id) => {
    const n = o.processed!.get(id) ?? 0;
    return n === 0 ? [] : [advisory(`processed count of test ${id}`, `the test delivery was processed ${n} time(s) as a business event (advice: the receiver kit hands test deliveries to onTest only)`)];
  });
}

export const receiverTestDelivery: Rule<ReceiverObservations> = {
  id: 'receiver-test-delivery',
  target: 'webhook-receiver',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 4.4, 4.5' },
  summary: 'A test delivery is answered 2XX; advice: it is not processed as a business event (observable with --probe-url).',
  check: (o) => combine([perProbe(o.probes, ['test'], (p) => (is2xx(p.status) ? [] : [`answered ${statusText(p)}, expected 2XX`])), notProcessed(o)]),
};
