// sender-gone-stops: a 410 disables the subscription permanently: no retry of that event, and no later
// event, ever (sections 3.2 and 7 of the platform's interface document). The certifier watches a quiet
// period, raises another event, and watches again. A 410 that may have reached the sender after its
// time-out (a busy certifier at a small time scale) disabled nothing: the rule is then skipped.
import { problem, skip, type Rule } from '../model.js';
import type { SenderObservations } from '../observations/webhooks.js';
import { answeredInTime, lateAnswerReason, ms } from '../shared/timing.js';
import { field } from '../shared/webhooks.js';

export const senderGoneStops: Rule<SenderObservations> = {
  id: 'sender-gone-stops',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 3.2, 7' },
  summary: 'After a 410 nothing more is delivered to the subscription: no retry, no later event.',
  check(o) {
    const phase = o.phases.gone;
    const subject = 'after the 410';
    if (!phase || phase.deliveries.length === 0) return [problem(subject, phase?.skipped ?? 'the 410 phase did not run')];
    const [first, ...more] = phase.deliveries;
    // Judged only when our 410 surely reached the sender, so the 410 exchange has an end to time from.
    if (more.length && !answeredInTime(o.timing, first)) return skip(lateAnswerReason(o.timing, first));
    const firstEvent = field(first.body, 'event_id');
    const findings = more.map((d) => {
      const what = field(d.body, 'event_id') === firstEvent ? 'a retry of the same event' : 'another event';
      return problem(subject, `delivery #${d.seq} (${what}) came ${ms(d.receivedAt - first.endedAt!)} after the 410`);
    });
    if (findings.length) return findings;
    // Without a second event the "no later event" half was not observed: not passed.
    return phase.afterGone ? [] : skip('no second event could be raised after the 410 (no retry of the first came)');
  },
};
