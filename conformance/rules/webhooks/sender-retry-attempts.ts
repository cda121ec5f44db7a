// Seed 3.2 and 8: a failing delivery is attempted exactly maxAttempts times (the first try and three
// retries), each a new attempt; never more, never fewer.
import { deliveryRules } from '../../../generated/webhooks/catalog.js';
import type { SenderObservations, WebhookRule } from '../../webhooks/types.js';

export const senderRetryAttempts: WebhookRule<SenderObservations> = {
  id: 'sender-retry-attempts',
  target: 'sender',
  summary: `An event answered 500 every time is attempted exactly ${deliveryRules.maxAttempts} times.`,
  check(o) {
    const phase = o.phases.retry;
    const subject = 'retry phase (500 to every attempt)';
    if (!phase || (phase.deliveries.length === 0 && phase.skipped)) return [{ subject, problems: [phase?.skipped ?? 'the retry phase did not run'] }];
    const n = phase.deliveries.length;
    const max = o.timing.maxAttempts;
    if (n === max) return [{ subject, problems: [] }];
    return [{ subject, problems: [n < max ? `only ${n} attempt(s) arrived; expected ${max}` : `${n} attempts arrived; expected exactly ${max}`] }];
  },
};
