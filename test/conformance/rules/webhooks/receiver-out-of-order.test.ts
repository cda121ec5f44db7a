import { describe, expect, it } from 'vitest';
import { receiverOutOfOrder } from '../../../../conformance/rules/webhooks/receiver-out-of-order.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
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

describe('receiver-out-of-order findings', () => {
  it('name the probe refused or unanswered, and skip when no out-of-order probe was sent', () => {
    expect(judge(receiverOutOfOrder, receiver([probe('out-of-order', 'newer', 299), probe('out-of-order', 'older', null), probe('valid', 'v', 500)]))).toEqual([
      { subject: 'older', severity: 'error', message: 'answered no HTTP answer (ECONNRESET), expected 2XX' },
    ]);
    expect(skipReason(receiverOutOfOrder, receiver([probe('valid', 'v', 200)]))).toBe('no out-of-order probe was sent');
  });
});
