import { describe, expect, it } from 'vitest';
import { receiverTestDelivery } from '../../../../conformance/rules/webhooks/receiver-test-delivery.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['answered 2XX, not processed', { given: receiver([probe('test', 'test delivery (is_test true)', 200)], { testEventIds: ['evt_t'], processed: new Map() }), want: [] }],
  ['processed as a business event', { given: receiver([probe('test', 'test delivery (is_test true)', 200)], { testEventIds: ['evt_t'], processed: new Map([['evt_t', 1]]) }), want: ['the test delivery was processed 1 time(s) as a business event'] }],
  ['refused', { given: receiver([probe('test', 'test delivery (is_test true)', 500)], { testEventIds: ['evt_t'], processed: new Map() }), want: ['answered 500, expected 2XX'] }],
  ['no --probe-url: processing cannot be observed (skipped)', { given: receiver([probe('test', 'test delivery (is_test true)', 200)], { testEventIds: ['evt_t'] }), want: 'skipped' }],
];

describe('receiver-test-delivery', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverTestDelivery, given)).toEqual(want);
  });
});
