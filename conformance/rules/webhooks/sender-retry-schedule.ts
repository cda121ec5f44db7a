// Seed 3.2 and 8, x-delivery-rules.retryDelaysSeconds / retryDelayFrom: retry n follows the previous
// attempt by the n-th delay (scaled by the sender's time scale), within the stated tolerances.
import type { Outcome, SenderObservations, WebhookRule } from '../../webhooks/types.js';
import { ms, windowFor } from '../../webhooks/timing.js';

export const senderRetrySchedule: WebhookRule<SenderObservations> = {
  id: 'sender-retry-schedule',
  target: 'sender',
  summary: 'Retries follow the contract delays (5 s, 30 s, 5 min at time scale 1) after the failed attempt, within the stated tolerances.',
  check(o) {
    const t = o.timing;
    const phase = o.phases.retry;
    if (!phase || phase.deliveries.length < 2) return [{ subject: 'retry schedule', skipped: phase?.skipped ?? 'fewer than two attempts: nothing to time (see sender-retry-attempts)' }];
    const outcomes: Outcome[] = [];
    const attempts = phase.deliveries;
    for (let i = 1; i < attempts.length && i <= t.retryDelaysMs.length; i++) {
      const prev = attempts[i - 1];
      const ref = t.from === 'end' ? prev.endedAt ?? prev.receivedAt : prev.receivedAt;
      const gap = attempts[i].receivedAt - ref;
      const expected = t.retryDelaysMs[i - 1];
      const w = windowFor(t, expected);
      const ok = gap >= w.min && gap <= w.max;
      outcomes.push({
        subject: `retry ${i}`,
        problems: ok ? [] : [`came ${ms(gap)} after attempt ${i} ${t.from === 'end' ? 'ended' : 'started'}; expected ${ms(expected)} (accepted ${ms(w.min)} to ${ms(w.max)})`],
      });
    }
    return outcomes;
  },
};
