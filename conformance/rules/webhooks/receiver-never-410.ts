// Seed 3.2: a 410 disables the subscription permanently. A receiver answers 410 only to unsubscribe on
// purpose, never to a probe: one 410 to a forged request would cut it off from every future event.
import { deliveryRules } from '../../../generated/webhooks/catalog.js';
import type { ReceiverObservations, WebhookRule } from '../../webhooks/types.js';

export const receiverNever410: WebhookRule<ReceiverObservations> = {
  id: 'receiver-never-410',
  target: 'receiver',
  summary: `No probe, valid or hostile, is answered ${deliveryRules.disableStatus} (it disables the subscription forever).`,
  check(o) {
    const gone = o.probes.filter((p) => p.status === deliveryRules.disableStatus);
    return [{ subject: `all ${o.probes.length} probes`, problems: gone.map((p) => `answered ${p.status} to "${p.name}"`) }];
  },
};
