// Seed 3.2: any 2XX means delivered, no further attempts. Late attempts are attributed to their event by
// event_id, so a retry arriving during later phases is still caught here.
import type { Outcome, PhaseName, SenderObservations, WebhookRule } from '../../webhooks/types.js';
import { ms } from '../../webhooks/timing.js';

const ANSWERED_2XX: PhaseName[] = ['delivered', 'test'];

export const senderNoRetryAfterSuccess: WebhookRule<SenderObservations> = {
  id: 'sender-no-retry-after-success',
  target: 'sender',
  summary: 'An attempt answered 2XX is the last one: the event is not sent again.',
  check(o) {
    const outcomes: Outcome[] = [];
    for (const name of ANSWERED_2XX) {
      const phase = o.phases[name];
      if (!phase) continue;
      const subject = `${name} phase`;
      if (phase.deliveries.length === 0) outcomes.push({ subject, skipped: phase.skipped ?? 'nothing arrived' });
      else {
        const [first, ...more] = phase.deliveries;
        outcomes.push({
          subject,
          problems: more.map((d) => `attempt ${d.seq} came ${ms(d.receivedAt - (first.endedAt ?? first.receivedAt))} after a 200`),
        });
      }
    }
    // The time-out phase answers 200 to its second attempt: nothing may follow that either.
    const timeout = o.phases.timeout;
    if (timeout && timeout.deliveries.length > 2) {
      outcomes.push({ subject: 'timeout phase', problems: timeout.deliveries.slice(2).map((d) => `attempt ${d.seq} came after the 200 that answered the retry`) });
    }
    return outcomes;
  },
};
