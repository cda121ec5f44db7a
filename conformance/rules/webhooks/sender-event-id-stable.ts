// Seed 2.17 and 3.2: every attempt of one event carries the same event_id, the receivers' idempotency key.
// The attempts of one event are the deliveries of one phase (the certifier raises one event per phase).
import type { Outcome, PhaseName, SenderObservations, WebhookRule } from '../../webhooks/types.js';
import { field, quote } from './util.js';

const MULTI_ATTEMPT: PhaseName[] = ['retry', 'timeout'];

export const senderEventIdStable: WebhookRule<SenderObservations> = {
  id: 'sender-event-id-stable',
  target: 'sender',
  summary: 'Retries of an event keep its event_id (and payload.event_id).',
  check(o) {
    return MULTI_ATTEMPT.map((name): Outcome => {
      const phase = o.phases[name];
      const subject = `${name} phase`;
      if (!phase || phase.deliveries.length < 2) return { subject, skipped: phase?.skipped ?? 'fewer than two attempts to compare' };
      const first = field(phase.deliveries[0].body, 'event_id');
      const problems: string[] = [];
      phase.deliveries.slice(1).forEach((d, i) => {
        const id = field(d.body, 'event_id');
        const inner = field(field(d.body, 'payload'), 'event_id');
        if (id !== first) problems.push(`attempt ${i + 2} (delivery #${d.seq}) has event_id ${quote(id)}, the first attempt had ${quote(first)}`);
        else if (inner !== first) problems.push(`attempt ${i + 2} (delivery #${d.seq}) has payload.event_id ${quote(inner)}, expected ${quote(first)}`);
      });
      return { subject, problems };
    });
  },
};
