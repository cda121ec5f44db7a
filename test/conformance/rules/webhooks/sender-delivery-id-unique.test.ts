import { describe, expect, it } from 'vitest';
import { senderDeliveryIdUnique } from '../../../../conformance/rules/webhooks/sender-delivery-id-unique.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
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

describe('sender-delivery-id-unique findings', () => {
  it('one error per reused id, naming every delivery that used it; ids that are not strings are not compared', () => {
    const id = (value: unknown, seq: number) => delivery(body((b) => (b.delivery_id = value)), { seq });
    expect(judge(senderDeliveryIdUnique, sender([id('dlv_a', 1), id('dlv_b', 2), id('dlv_a', 3), id(7, 4), id(7, 5), id('dlv_a', 6)]))).toEqual([
      { subject: 'delivery_id dlv_a', severity: 'error', message: 'used by 3 attempts (deliveries #1, #3, #6)' },
    ]);
    expect(skipReason(senderDeliveryIdUnique, sender([id(null, 1)]))).toBe('no delivery with a delivery_id arrived');
  });
});
