// sender-timeout-is-failure: no response within the time-out is a failed attempt: the sender gives up at
// the (scaled) time-out and retries after the first delay, with the same event_id (sections 3.2 and 8 of
// the platform's interface document). Windows widen by how late the certifier may have stamped the
// attempts (its own event-loop stalls): a late-stamped arrival makes a punctual time-out look early.
import { problem, type Finding, type Rule } from '../model.js';
import type { SenderObservations } from '../observations/webhooks.js';
import { ms, stampDelay, windowFor } from '../shared/timing.js';

export const senderTimeoutIsFailure: Rule<SenderObservations> = {
  id: 'sender-timeout-is-failure',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 3.2, 8' },
  summary: 'An attempt left unanswered is abandoned at the time-out (30 s at time scale 1) and retried after the first delay.',
  check(o) {
    const t = o.timing;
    const phase = o.phases.timeout;
    const subject = 'timeout phase (first attempt unanswered)';
    if (!phase || phase.deliveries.length === 0) return [problem(subject, phase?.skipped ?? 'the time-out phase did not run')];
    const [first, second] = phase.deliveries;
    const findings: Finding[] = [];
    const giveUp = windowFor(t, t.timeoutMs, stampDelay(first));
    if (first.abandonedBySender && first.endedAt !== undefined) {
      const held = first.endedAt - first.receivedAt;
      if (held < giveUp.min || held > giveUp.max) findings.push(problem(subject, `the sender gave up after ${ms(held)}; expected ${ms(t.timeoutMs)} (accepted ${ms(giveUp.min)} to ${ms(giveUp.max)})`));
    } else {
      findings.push(problem(subject, `the sender did not give up on the unanswered attempt within ${ms(giveUp.max)} (time-out ${ms(t.timeoutMs)})`));
    }
    if (!second) findings.push(problem(subject, 'no retry followed the unanswered attempt: a time-out must count as a failed attempt'));
    else if (first.abandonedBySender && first.endedAt !== undefined) {
      const gap = second.receivedAt - (t.from === 'end' ? first.endedAt : first.receivedAt);
      const expected = t.from === 'end' ? t.retryDelaysMs[0] : t.retryDelaysMs[0] + t.timeoutMs;
      const w = windowFor(t, expected, stampDelay(first, second));
      if (gap < w.min || gap > w.max) findings.push(problem(subject, `the retry came ${ms(gap)} after the attempt ${t.from === 'end' ? 'timed out' : 'started'}; expected ${ms(expected)} (accepted ${ms(w.min)} to ${ms(w.max)})`));
    }
    return findings;
  },
};
