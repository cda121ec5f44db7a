import { describe, expect, it } from 'vitest';
import { receiverOutOfOrder } from '../../../../conformance/rules/webhooks/receiver-out-of-order.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['the older update acknowledged', { given: receiver([probe('out-of-order', 'newer update', 200), probe('out-of-order', 'older update after the newer one', 200)]), want: [] }],
  ['the older update refused into retries', { given: receiver([probe('out-of-order', 'older update after the newer one', 409)]), want: ['answered 409, expected 2XX'] }],
];

describe('receiver-out-of-order', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverOutOfOrder, given)).toEqual(want);
  });
});
