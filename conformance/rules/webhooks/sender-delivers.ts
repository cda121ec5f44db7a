// sender-delivers: a raised event (or a requested test) is delivered to the subscription (sections 6.1.1
// and 4.4 of the platform's interface document). Every other sender rule needs deliveries to judge; this
// one fails when a phase got none, so a silent sender is never "certified by default".
import { problem, skip, type Rule } from '../model.js';
import type { PhaseName, SenderObservations } from '../observations/webhooks.js';

const ORDER: PhaseName[] = ['delivered', 'test', 'timeout', 'retry', 'gone'];

export const senderDelivers: Rule<SenderObservations> = {
  id: 'sender-delivers',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 6.1.1, 4.4' },
  summary: 'Every raised event (and requested test delivery) arrives at the subscriber endpoint.',
  check(o) {
    const ran = ORDER.filter((name) => o.phases[name]);
    if (ran.length === 0) return skip('no phase ran');
    return ran.flatMap((name) => {
      const phase = o.phases[name]!;
      return phase.deliveries.length > 0 ? [] : [problem(`${name} phase`, phase.skipped ?? 'nothing arrived')];
    });
  },
};
