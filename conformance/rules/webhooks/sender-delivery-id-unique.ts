// Seed 2.17 and 3.2: delivery_id is unique per attempt, so a retry carries a new one. A reused id makes a
// receiver (or the delivery log) mistake one attempt for another.
import type { Outcome, SenderObservations, WebhookRule } from '../../webhooks/types.js';
import { field } from './util.js';

export const senderDeliveryIdUnique: WebhookRule<SenderObservations> = {
  id: 'sender-delivery-id-unique',
  target: 'sender',
  summary: 'Every attempt, retries included, carries a delivery_id no other attempt used.',
  check(o) {
    const seen = new Map<string, number[]>();
    for (const d of o.deliveries) {
      const id = field(d.body, 'delivery_id');
      if (typeof id === 'string') seen.set(id, [...(seen.get(id) ?? []), d.seq]);
    }
    return [...seen].map(([id, seqs]): Outcome => ({
      subject: `delivery_id ${id}`,
      problems: seqs.length > 1 ? [`used by ${seqs.length} attempts (deliveries ${seqs.map((s) => `#${s}`).join(', ')})`] : [],
    }));
  },
};
