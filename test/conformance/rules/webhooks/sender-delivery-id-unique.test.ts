import { describe, expect, it } from 'vitest';
import { senderDeliveryIdUnique } from '../../../../conformance/rules/webhooks/sender-delivery-id-unique.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
import { attempts, body, delivery, sender } from './fixtures.js';

const reused = (seq: number) => delivery(body((b) => (b.delivery_id = 'dlv_same')), { seq });

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['a new delivery_id on every attempt', { given: sender(attempts('retry', [[0, 1], [5000, 5001], [35000, 35001]])), want: [] }],
  ['a retry reusing the delivery_id', { given: sender([reused(1), reused(2)]), want: ['used by 2 attempts (deliveries #1, #2)'] }],
  ['no delivery (skipped)', { given: sender([]), want: 'skipped' }],
];

describe('sender-delivery-id-unique', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderDeliveryIdUnique, given)).toEqual(want);
  });
});
