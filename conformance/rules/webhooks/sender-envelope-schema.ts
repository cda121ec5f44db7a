// sender-envelope-schema: the body is a WebhookEnvelope (section 2.17 of the platform's interface
// document) with payload.event and payload.event_id repeating the envelope's, and payload.properties valid
// against the AsyncAPI message of its event (generated validators). The envelope is stated, so its defects
// are errors. Event models are stated only for the events the document names (6.3); the others, and
// events outside this catalog, are designed or unknown (section 6.5 leaves both open): their defects are
// advice, and say so.
import { webhookEvents } from 'storefront-contract';
import { validateWebhookDelivery, validateWebhookEnvelope } from 'storefront-contract/validators';
import { advisory, problem, skip, type Finding, type Rule } from '../model.js';
import type { SenderObservations } from '../observations/webhooks.js';
import { describeDelivery, field } from '../shared/webhooks.js';

type Issue = { path: string; message: string; got?: string };
const line = (e: Issue) => `${e.path}: ${e.message}${e.got ? ` (got ${e.got})` : ''}`;
const stated = new Set<string>(webhookEvents.filter((e) => e.contractSource === 'seed').map((e) => e.event));

export const senderEnvelopeSchema: Rule<SenderObservations> = {
  id: 'sender-envelope-schema',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 2.17' },
  summary:
    'The body is JSON, a WebhookEnvelope with payload.event and payload.event_id equal to the envelope; payload.properties valid against the AsyncAPI schema of its event (advice for events whose model the document does not state).',
  check(o) {
    if (o.deliveries.length === 0) return skip('no delivery arrived (see sender-delivers)');
    return o.deliveries.flatMap((d): Finding[] => {
      const subject = describeDelivery(d);
      if (d.body === undefined) return [problem(subject, `body is not JSON (${d.parseError ?? 'unparseable'})`)];
      // The generated validators stop at the first error, so one line says what is wrong.
      const envelope = validateWebhookEnvelope(d.body);
      if (!envelope.valid) return envelope.errors.map((e) => problem(subject, line(e)));
      const event = field(d.body, 'event') as string;
      const payload = field(d.body, 'payload');
      const findings: Finding[] = [];
      if (field(payload, 'event') !== event) findings.push(problem(subject, 'payload.event differs from event'));
      if (field(payload, 'event_id') !== field(d.body, 'event_id')) findings.push(problem(subject, 'payload.event_id differs from event_id'));
      if (findings.length) return findings;
      const model = validateWebhookDelivery(d.body);
      if (model.valid) return [];
      if (stated.has(event)) return model.errors.map((e) => problem(subject, line(e)));
      return model.errors.map((e) => advisory(subject, `${line(e)} (advice: the platform's document does not state the model of ${event})`));
    });
  },
};
