// receiver-never-410: a 410 disables the subscription permanently (section 3.2 of the platform's
// interface document). The contract allows a receiver to answer 410 to unsubscribe (section 4.5), so this
// is advice only (designed): a receiver that answers 410 to a delivery it cannot use (a bad signature
// during a secret rotation, an event it does not know) cuts itself off from every future event.
import { deliveryRules } from 'storefront-contract';
import { problem, skip, type Rule } from '../model.js';
import type { ReceiverObservations } from '../observations/webhooks.js';

export const receiverNever410: Rule<ReceiverObservations> = {
  id: 'receiver-never-410',
  target: 'webhook-receiver',
  severity: 'warning',
  source: { kind: 'designed', ref: 'docs/guides/receiving-webhooks.md#what-the-receiver-answers' },
  summary: `No probe, valid or hostile, is answered ${deliveryRules.disableStatus} (advice: the contract allows it to unsubscribe, and it disables the subscription forever).`,
  check(o) {
    if (o.probes.length === 0) return skip('no probe was sent');
    return o.probes.filter((p) => p.status === deliveryRules.disableStatus).map((p) => problem(p.name, `answered ${p.status}`));
  },
};
