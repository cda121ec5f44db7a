// Seed 4.4: a test delivery (is_test true) is acknowledged with 2XX and not acted on as a business event.
import type { Outcome, ReceiverObservations, WebhookRule } from '../../webhooks/types.js';
import { is2xx, perProbe, statusText } from './util.js';

export const receiverTestDelivery: WebhookRule<ReceiverObservations> = {
  id: 'receiver-test-delivery',
  target: 'receiver',
  summary: 'A test delivery is answered 2XX and not processed as a business event.',
  check(o) {
    const outcomes: Outcome[] = perProbe(o.probes, ['test'], (p) => (is2xx(p.status) ? [] : [`answered ${statusText(p)}, expected 2XX`]));
    if (o.processed) {
      for (const id of o.testEventIds) {
        const n = o.processed.get(id) ?? 0;
        outcomes.push({ subject: `processed count of test ${id}`, problems: n === 0 ? [] : [`the test delivery was processed ${n} time(s) as a business event`] });
      }
    }
    return outcomes;
  },
};
