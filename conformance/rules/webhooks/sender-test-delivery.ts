// sender-test-delivery: a test delivery is a delivery of the subscribed event with is_test true (section
// 4.4 of the platform's interface document).
import { problem, skip, type Rule } from '../model.js';
import type { SenderObservations } from '../observations/webhooks.js';
import { describeDelivery, field } from '../shared/webhooks.js';

export const senderTestDelivery: Rule<SenderObservations> = {
  id: 'sender-test-delivery',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 4.4' },
  summary: 'A requested test delivery arrives, with is_test true.',
  check(o) {
    const phase = o.phases.test;
    if (!phase) return skip('no test delivery requested (needs --admin-url)');
    if (phase.deliveries.length === 0) return [problem('test delivery', phase.skipped ?? 'no test delivery arrived')];
    const d = phase.deliveries[0];
    return field(d.body, 'is_test') === true ? [] : [problem(describeDelivery(d), `is_test is ${JSON.stringify(field(d.body, 'is_test'))}, expected true`)];
  },
};
