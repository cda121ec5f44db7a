// Seed 6.1.3: the subscription's custom headers are added to every request, retries included.
import type { SenderObservations, WebhookRule } from '../../webhooks/types.js';
import { headerValues, perDelivery } from './util.js';

export const senderCustomHeaders: WebhookRule<SenderObservations> = {
  id: 'sender-custom-headers',
  target: 'sender',
  summary: "The subscription's custom headers are on every attempt, with the registered values.",
  check(o) {
    const expected = Object.entries(o.customHeaders);
    if (expected.length === 0) return [{ subject: 'custom headers', skipped: 'no custom header registered (use --admin-url, or --expect-header in port mode)' }];
    return perDelivery(o.deliveries, (d) =>
      expected.flatMap(([name, value]) => {
        const got = headerValues(d, name);
        if (got.length === 0) return [`custom header ${name} is missing`];
        // Values are write-only secrets of the subscriber: say that it differs, never what it is.
        if (got.length > 1 || got[0] !== value) return [`custom header ${name} does not carry the registered value`];
        return [];
      }),
    );
  },
};
