// sender-envelope-schema: the body is a WebhookEnvelope (section 2.17 of the platform's interface
// document) whose payload.properties validate against the AsyncAPI message of its event (generated
// validators), and payload.event / payload.event_id repeat the envelope's.
import { validateWebhookDelivery } from 'storefront-contract/validators';
import type { Rule } from '../model.js';
import type { SenderObservations } from '../observations/webhooks.js';
import { field, perDelivery } from '../shared/webhooks.js';

export const senderEnvelopeSchema: Rule<SenderObservations> = {
  id: 'sender-envelope-schema',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 2.17' },
  summary: 'The body is JSON, a WebhookEnvelope valid against the AsyncAPI schema of its event, with payload.event and payload.event_id equal to the envelope.',
  check: (o) =>
    perDelivery(o.deliveries, (d) => {
      if (d.body === undefined) return [`body is not JSON (${d.parseError ?? 'unparseable'})`];
      // The generated validators stop at the first error (no allErrors), so one line says what is wrong. The
      // event's schema pins payload.event to its name; payload.event_id is compared here.
      const result = validateWebhookDelivery(d.body);
      if (!result.valid) return result.errors.map((e) => `${e.path}: ${e.message}${e.got ? ` (got ${e.got})` : ''}`);
      return field(field(d.body, 'payload'), 'event_id') === field(d.body, 'event_id') ? [] : ['payload.event_id differs from event_id'];
    }),
};
