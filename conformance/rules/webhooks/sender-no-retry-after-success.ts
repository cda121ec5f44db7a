// sender-no-retry-after-success: any 2XX means delivered, no further attempts (section 3.2 of the
// platform's interface document). Late attempts are attributed to their event by event_id, so a retry
// arriving during later phases is still caught here. A 2XX that may have reached the sender after its
// time-out (a busy certifier at a small time scale) proves nothing: that part is skipped.
import { combine, problem, skip, type Judgement, type Rule } from '../model.js';
import type { PhaseName, SenderObservations } from '../observations/webhooks.js';
import { answeredInTime, lateAnswerReason, ms } from '../shared/timing.js';

const ANSWERED_2XX: PhaseName[] = ['delivered', 'test'];

export const senderNoRetryAfterSuccess: Rule<SenderObservations> = {
  id: 'sender-no-retry-after-success',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 3.2' },
  summary: 'An attempt answered 2XX is the last one: the event is not sent again.',
  check(o) {
    const parts: Judgement[] = [];
    for (const name of ANSWERED_2XX) {
      const phase = o.phases[name];
      if (!phase) continue;
      const subject = `${name} phase`;
      if (phase.deliveries.length === 0) {
        parts.push(skip(`${subject}: ${phase.skipped ?? 'nothing arrived'}`));
        continue;
      }
      const [first, ...more] = phase.deliveries;
      if (more.length && !answeredInTime(o.timing, first)) parts.push(skip(`${subject}: ${lateAnswerReason(o.timing, first)}`));
      else parts.push(more.map((d) => problem(subject, `attempt ${d.seq} came ${ms(d.receivedAt - first.endedAt!)} after a 200`)));
    }
    // The time-out phase answers 200 to its second attempt: nothing may follow that either.
    const timeout = o.phases.timeout;
    if (timeout && timeout.deliveries.length > 2) {
      const answered = timeout.deliveries[1];
      if (!answeredInTime(o.timing, answered)) parts.push(skip(`timeout phase: ${lateAnswerReason(o.timing, answered)}`));
      else parts.push(timeout.deliveries.slice(2).map((d) => problem('timeout phase', `attempt ${d.seq} came after the 200 that answered the retry`)));
    }
    return parts.length ? combine(parts) : skip('no delivery was answered 2XX');
  },
};
