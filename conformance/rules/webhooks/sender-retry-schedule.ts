// sender-retry-schedule: retry n follows the previous attempt by the n-th delay (scaled by the sender's
// time scale), within the stated tolerances (sections 3.2 and 8 of the platform's interface document;
// x-delivery-rules.retryDelaysSeconds, and retryDelayFrom for the reference point). Each window widens by
// how late the certifier may have stamped the two attempts compared (its own event-loop stalls).
import { problem, skip, type Finding, type Rule } from '../model.js';
import type { SenderObservations } from '../observations/webhooks.js';
import { ms, stampDelay, windowFor } from '../shared/timing.js';

export const senderRetrySchedule: Rule<SenderObservations> = {
  id: 'sender-retry-schedule',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 3.2, 8' },
  summary: 'Retries follow the contract delays (5 s, 30 s, 5 min at time scale 1) after the failed attempt, within the stated tolerances.',
  check(o) {
    const t = o.timing;
    const phase = o.phases.retry;
    if (!phase || phase.deliveries.length < 2) return skip(phase?.skipped ?? 'fewer than two attempts: nothing to time (see sender-retry-attempts)');
    const findings: Finding[] = [];
    const attempts = phase.deliveries;
    // Stryker disable next-line ConditionalExpression: past the stated delays there is no expected gap (undefined, a NaN window no gap falls outside), so the bound only says so; sender-retry-attempts judges an extra attempt
    for (let i = 1; i < attempts.length && i <= t.retryDelaysMs.length; i++) {
      const prev = attempts[i - 1];
      const ref = t.from === 'end' ? prev.endedAt ?? prev.receivedAt : prev.receivedAt;
      const gap = attempts[i].receivedAt - ref;
      const expected = t.retryDelaysMs[i - 1];
      const w = windowFor(t, expected, stampDelay(prev, attempts[i]));
      if (gap < w.min || gap > w.max) {
        findings.push(problem(`retry ${i}`, `came ${ms(gap)} after attempt ${i} ${t.from === 'end' ? 'ended' : 'started'}; expected ${ms(expected)} (accepted ${ms(w.min)} to ${ms(w.max)})`));
      }
    }
    return findings;
  },
};
