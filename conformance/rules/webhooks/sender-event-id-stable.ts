// sender-event-id-stable: every attempt of one event carries the same event_id, the receivers'
// idempotency key (sections 2.17 and 3.2 of the platform's interface document). The attempts of one
// event are the deliveries of one phase (the certifier raises one event per phase).
import { combine, problem, skip, type Judgement, type Rule } from '../model.js';
import type { PhaseName, SenderObservations } from '../observations/webhooks.js';
import { field, quote } from '../shared/webhooks.js';

const MULTI_ATTEMPT: PhaseName[] = ['retry', 'timeout'];

export const senderEventIdStable: Rule<SenderObservations> = {
  id: 'sender-event-id-stable',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 2.17, 3.2' },
  summary: 'Retries of an event keep its event_id (and payload.event_id).',
  check(o) {
    return combine(
      MULTI_ATTEMPT.map((name): Judgement => {
        const phase = o.phases[name];
        const subject = `${name} phase`;
        if (!phase || phase.deliveries.length < 2) return skip(`${subject}: ${phase?.skipped ?? 'fewer than two attempts to compare'}`);
        const first = field(phase.deliveries[0].body, 'event_id');
        return phase.deliveries.slice(1).flatMap((d, i) => {
          const id = field(d.body, 'event_id');
          const inner = field(field(d.body, 'payload'), 'event_id');
          if (id !== first) return [problem(subject, `attempt ${i + 2} (delivery #${d.seq}) has event_id ${quote(id)}, the first attempt had ${quote(first)}`)];
          if (inner !== first) return [problem(subject, `attempt ${i + 2} (delivery #${d.seq}) has payload.event_id ${quote(inner)}, expected ${quote(first)}`)];
          return [];
        });
      }),
    );
  },
};
