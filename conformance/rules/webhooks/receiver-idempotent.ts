// Seed 6.1.2: delivery is at least once; receivers de-duplicate on event_id. A duplicate and a replay are
// acknowledged with 2XX (an error would only bring more retries) and processed once, which --probe-url
// makes observable.
import type { Outcome, ReceiverObservations, WebhookRule } from '../../webhooks/types.js';
import { is2xx, perProbe, statusText } from './util.js';

export const receiverIdempotent: WebhookRule<ReceiverObservations> = {
  id: 'receiver-idempotent',
  target: 'receiver',
  summary: 'A duplicate and a replay of an event are answered 2XX and processed once.',
  check(o) {
    const outcomes: Outcome[] = perProbe(o.probes, ['duplicate'], (p) => (is2xx(p.status) ? [] : [`answered ${statusText(p)}, expected 2XX`]));
    for (const id of o.duplicateEventIds) {
      const subject = `processed count of ${id}`;
      if (o.probeError) outcomes.push({ subject, problems: [`the probe endpoint could not be read: ${o.probeError}`] });
      else if (!o.processed) outcomes.push({ subject, skipped: 'no --probe-url given' });
      else {
        const n = o.processed.get(id) ?? 0;
        outcomes.push({ subject, problems: n === 1 ? [] : [`processed ${n} times after an original, a duplicate and a replay; expected once`] });
      }
    }
    return outcomes;
  },
};
