import { describe, expect, it } from 'vitest';
import { receiverTestDelivery } from '../../../../conformance/rules/webhooks/receiver-test-delivery.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['answered 2XX, not processed', { given: receiver([probe('test', 'test delivery (is_test true)', 200)], { testEventIds: ['evt_t'], processed: new Map() }), want: [] }],
  ['processed as a business event', { given: receiver([probe('test', 'test delivery (is_test true)', 200)], { testEventIds: ['evt_t'], processed: new Map([['evt_t', 1]]) }), want: ['warning: the test delivery was processed 1 time(s) as a business event (advice: the receiver kit hands test deliveries to onTest only)'] }],
  ['refused', { given: receiver([probe('test', 'test delivery (is_test true)', 500)], { testEventIds: ['evt_t'], processed: new Map() }), want: ['answered 500, expected 2XX'] }],
  ['no --probe-url: processing cannot be observed (skipped)', { given: receiver([probe('test', 'test delivery (is_test true)', 200)], { testEventIds: ['evt_t'] }), want: 'skipped' }],
];

describe('receiver-test-delivery', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverTestDelivery, given)).toEqual(want);
  });
});

describe('receiver-test-delivery findings', () => {
  it('name the refused probe (an error: stated) and each test event processed, with the count (advice: designed)', () => {
    const given = receiver([probe('test', 'test delivery', 300), probe('valid', 'v', 500)], { testEventIds: ['evt_t', 'evt_u', 'evt_v'], processed: new Map([['evt_t', 2], ['evt_v', 0]]) });
    expect(judge(receiverTestDelivery, given)).toEqual([
      { subject: 'test delivery', severity: 'error', message: 'answered 300, expected 2XX' },
      { subject: 'processed count of test evt_t', severity: 'warning', message: 'the test delivery was processed 2 time(s) as a business event (advice: the receiver kit hands test deliveries to onTest only)' },
    ]);
  });

  it('an unreadable probe endpoint is advice on the endpoint (what it would show is advice); without --probe-url it says why it is skipped', () => {
    expect(judge(receiverTestDelivery, receiver([probe('test', 't', 200)], { testEventIds: ['evt_t'], probeError: 'answered 500', processed: new Map() }))).toEqual([
      { subject: 'probe endpoint', severity: 'warning', message: 'the probe endpoint could not be read: answered 500' },
    ]);
    expect(skipReason(receiverTestDelivery, receiver([probe('test', 't', 200)], { testEventIds: ['evt_t'] }))).toBe('no --probe-url given: whether the test delivery was processed cannot be observed');
    expect(skipReason(receiverTestDelivery, receiver([], { testEventIds: [], processed: new Map() }))).toBe('no test probe was sent');
  });
});
