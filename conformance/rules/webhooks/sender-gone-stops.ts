// Seed 3.2 and 7: a 410 disables the subscription permanently: no retry of that event, and no later
// event, ever. The certifier watches a quiet period, raises another event, and watches again.
import type { Outcome, SenderObservations, WebhookRule } from '../../webhooks/types.js';
import { ms } from '../../webhooks/timing.js';
import { field } from './util.js';

export const senderGoneStops: WebhookRule<SenderObservations> = {
  id: 'sender-gone-stops',
  target: 'sender',
  summary: 'After a 410 nothing more is delivered to the subscription: no retry, no later event.',
  check(o) {
    const phase = o.phases.gone;
    const subject = 'after the 410';
    if (!phase || phase.deliveries.length === 0) return [{ subject, problems: [phase?.skipped ?? 'the 410 phase did not run'] }];
    const [first, ...more] = phase.deliveries;
    const firstEvent = field(first.body, 'event_id');
    const outcomes: Outcome[] = [
      {
        subject,
        problems: more.map((d) => {
          const what = field(d.body, 'event_id') === firstEvent ? 'a retry of the same event' : 'another event';
          return `delivery #${d.seq} (${what}) came ${ms(d.receivedAt - (first.endedAt ?? first.receivedAt))} after the 410`;
        }),
      },
    ];
    if (phase.afterGone) outcomes.push({ subject: 'event raised after the 410', problems: [] });
    else outcomes.push({ subject: 'event raised after the 410', skipped: 'no second event could be raised' });
    return outcomes;
  },
};
