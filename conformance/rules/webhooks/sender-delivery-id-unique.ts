// sender-delivery-id-unique: delivery_id is unique per attempt, so a retry carries a new one (sections
// 2.17 and 3.2 of the platform's interface document). A reused id makes a receiver (or the delivery log)
// mistake one attempt for another.
import { problem, skip, type Rule } from '../model.js';
import type { SenderObservations } from '../observations/webhooks.js';
import { field } from '../shared/webhooks.js';

export const senderDeliveryIdUnique: Rule<SenderObservations> = {
  id: 'sender-delivery-id-unique',
  target: 'webhook-sender',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 2.17, 3.2' },
  summary: 'Every attempt, retries included, carries a delivery_id no other attempt used.',
  check(o) {
    const seen = new Map<string, number[]>();
    for (const d of o.deliveries) {
      const id = field(d.body, 'delivery_id');
      if (typeof id === 'string') seen.set(id, [...(seen.get(id) ?? []), d.seq]);
    }
    if (seen.size === 0) return skip('no delivery with a delivery_id arrived');
    return [...seen]
      .filter(([, seqs]) => seqs.length > 1)
      .map(([id, seqs]) => problem(`delivery_id ${id}`, `used by ${seqs.length} attempts (deliveries ${seqs.map((s) => `#${s}`).join(', ')})`));
  },
};
