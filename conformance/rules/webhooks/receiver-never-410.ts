// receiver-never-410: a 410 disables the subscription permanently (section 3.2 of the platform's
// interface document). A receiver answers 410 only to unsubscribe on purpose, never to a probe: one 410
// to a forged request would cut it off from every future event.
import { deliveryRules } from 'storefront-contract';
import { problem, skip, type Rule } from '../model.js';
import type { ReceiverObservations } from '../../webhooks/observations.js';

export const receiverNever410: Rule<ReceiverObservations> = {
  id: 'receiver-never-410',
  target: 'webhook-receiver',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 3.2' },
  summary: `No probe, valid or hostile, is answered ${deliveryRules.disableStatus} (it disables the subscription forever).`,
  check(o) {
    if (o.probes.length === 0) return skip('no probe was sent');
    return o.probes.filter((p) => p.status === deliveryRules.disableStatus).map((p) => problem(p.name, `answered ${p.status}`));
  },
};
