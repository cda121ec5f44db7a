// sender-custom-headers: the subscription's custom headers are added to every request, retries included
// (section 6.1.3 of the platform's interface document).
import { skip, type Rule } from '../model.js';
import type { SenderObservations } from '../observations/webhooks.js';
import { headerValues, perDelivery } from '../shared/webhooks.js';

export const senderCustomHeaders: Rule<SenderObservations> = {
  id: 'sender-custom-headers',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 6.1.3' },
  summary: "The subscription's custom headers are on every attempt, with the registered values.",
  check(o) {
    const expected = Object.entries(o.customHeaders);
    if (expected.length === 0) return skip('no custom header registered (use --admin-url, or --expect-header in port mode)');
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
