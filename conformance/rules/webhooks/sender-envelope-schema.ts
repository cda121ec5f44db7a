// sender-envelope-schema: the body is a WebhookEnvelope (section 2.17 of the platform's interface
// document) whose payload.properties validate against the AsyncAPI message of its event (generated
// validators), and payload.event / payload.event_id repeat the envelope's.
import { validateWebhookDelivery } from 'storefront-contract/validators';
import type { Rule } from '../model.js';
import type { SenderObservations } from '../../webhooks/observations.js';
import { field, perDelivery } from '../shared/webhooks.js';

const MAX_ISSUES = 5;

export const senderEnvelopeSchema: Rule<SenderObservations> = {
  id: 'sender-envelope-schema',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 2.17' },
  summary: 'The body is JSON, a WebhookEnvelope valid against the AsyncAPI schema of its event, with payload.event and payload.event_id equal to the envelope.',
  check: (o) =>
    perDelivery(o.deliveries, (d) => {
      if (d.body === undefined) return [`body is not JSON (${d.parseError ?? 'unparseable'})`];
      const result = validateWebhookDelivery(d.body);
      if (!result.valid) {
        const lines = result.errors.slice(0, MAX_ISSUES).map((e) => `${e.path}: ${e.message}${e.got ? ` (got ${e.got})` : ''}`);
        if (result.errors.length > MAX_ISSUES) lines.push(`… and ${result.errors.length - MAX_ISSUES} more schema errors`);
        return lines;
      }
      const payload = field(d.body, 'payload');
      const problems: string[] = [];
      if (field(payload, 'event') !== field(d.body, 'event')) problems.push('payload.event differs from event');
      if (field(payload, 'event_id') !== field(d.body, 'event_id')) problems.push('payload.event_id differs from event_id');
      return problems;
    }),
};
