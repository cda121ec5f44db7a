// sender-retry-attempts: a failing delivery is attempted exactly maxAttempts times, the first try and
// three retries, each a new attempt; never more, never fewer (sections 3.2 and 8 of the platform's
// interface document).
import { deliveryRules } from 'storefront-contract';
import { problem, type Rule } from '../model.js';
import type { SenderObservations } from '../observations/webhooks.js';

export const senderRetryAttempts: Rule<SenderObservations> = {
  id: 'sender-retry-attempts',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 3.2, 8' },
  summary: `An event answered 500 every time is attempted exactly ${deliveryRules.maxAttempts} times.`,
  check(o) {
    const phase = o.phases.retry;
    const subject = 'retry phase (500 to every attempt)';
    if (!phase || (phase.deliveries.length === 0 && phase.skipped)) return [problem(subject, phase?.skipped ?? 'the retry phase did not run')];
    const n = phase.deliveries.length;
    const max = o.timing.maxAttempts;
    if (n === max) return [];
    // Stryker disable next-line EqualityOperator: n !== max here, so n < max and n <= max agree
    return [problem(subject, n < max ? `only ${n} attempt(s) arrived; expected ${max}` : `${n} attempts arrived; expected exactly ${max}`)];
  },
};
