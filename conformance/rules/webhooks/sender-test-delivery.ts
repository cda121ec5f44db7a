// Seed 4.4: a test delivery is a delivery of the subscribed event with is_test true.
import type { SenderObservations, WebhookRule } from '../../webhooks/types.js';
import { describeDelivery, field } from './util.js';

export const senderTestDelivery: WebhookRule<SenderObservations> = {
  id: 'sender-test-delivery',
  target: 'sender',
  summary: 'A requested test delivery arrives, with is_test true.',
  check(o) {
    const phase = o.phases.test;
    if (!phase) return [{ subject: 'test delivery', skipped: 'no test delivery requested (needs --admin-url)' }];
    if (phase.deliveries.length === 0) return [{ subject: 'test delivery', problems: [phase.skipped ?? 'no test delivery arrived'] }];
    const d = phase.deliveries[0];
    return [{ subject: describeDelivery(d), problems: field(d.body, 'is_test') === true ? [] : [`is_test is ${JSON.stringify(field(d.body, 'is_test'))}, expected true`] }];
  },
};
