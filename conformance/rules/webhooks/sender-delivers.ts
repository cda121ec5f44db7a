// Seed 6.1.1 and 4.4: a raised event (or a requested test) is delivered to the subscription. Every other
// sender rule needs deliveries to judge; this one fails when a phase got none, so a silent sender is
// never "certified by default".
import type { Outcome, PhaseName, SenderObservations, WebhookRule } from '../../webhooks/types.js';

const ORDER: PhaseName[] = ['delivered', 'test', 'timeout', 'retry', 'gone'];

export const senderDelivers: WebhookRule<SenderObservations> = {
  id: 'sender-delivers',
  target: 'sender',
  summary: 'Every raised event (and requested test delivery) arrives at the subscriber endpoint.',
  check: (o) =>
    ORDER.flatMap((name): Outcome[] => {
      const phase = o.phases[name];
      if (!phase) return [];
      return [{ subject: `${name} phase`, problems: phase.deliveries.length > 0 ? [] : [phase.skipped ?? 'nothing arrived'] }];
    }),
};
