import { describe, expect, it } from 'vitest';
import { receiverIdempotent } from '../../../../conformance/rules/webhooks/receiver-idempotent.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { view, type View } from '../view.js';
import { skipReason } from '../view.js';
import { probe, receiver } from './fixtures.js';

const dup = (status: number) => [
  probe('duplicate', 'original delivery', 200, '2XX', 'evt_dup'),
  probe('duplicate', 'duplicate (the same bytes again)', status, '2XX', 'evt_dup'),
  probe('duplicate', 'replay (same event_id, new delivery_id)', status, '2XX', 'evt_dup'),
];

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['answered 2XX and processed once', { given: receiver(dup(200), { duplicateEventIds: ['evt_dup'], processed: new Map([['evt_dup', 1]]) }), want: [] }],
  ['processed three times', { given: receiver(dup(200), { duplicateEventIds: ['evt_dup'], processed: new Map([['evt_dup', 3]]) }), want: ['processed 3 times after an original, a duplicate and a replay; expected once'] }],
  ['a duplicate refused', { given: receiver(dup(409), { duplicateEventIds: ['evt_dup'], processed: new Map([['evt_dup', 1]]) }), want: ['answered 409, expected 2XX', 'answered 409, expected 2XX'] }],
  ['the probe endpoint unreadable', { given: receiver(dup(200), { duplicateEventIds: ['evt_dup'], probeError: 'GET http://x/processed answered 500' }), want: ['the probe endpoint could not be read: GET http://x/processed answered 500'] }],
  ['no --probe-url: processing cannot be observed (skipped, never passed)', { given: receiver(dup(200), { duplicateEventIds: ['evt_dup'] }), want: 'skipped' }],
];

describe('receiver-idempotent', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverIdempotent, given)).toEqual(want);
  });

  it('says why it is skipped without --probe-url', () => {
    expect(skipReason(receiverIdempotent, receiver(dup(200), { duplicateEventIds: ['evt_dup'] }))).toBe('no --probe-url given: idempotency cannot be observed');
  });
});

describe('receiver-idempotent findings', () => {
  it('name the refused probe and the event processed a wrong number of times, never-processed included', () => {
    const given = receiver([...dup(200), probe('duplicate', 'replay of evt_b', 300, '2XX', 'evt_b'), probe('valid', 'v', 500)], {
      duplicateEventIds: ['evt_dup', 'evt_b', 'evt_c'],
      processed: new Map([['evt_dup', 1], ['evt_b', 0], ['evt_c', 2]]),
    });
    expect(judge(receiverIdempotent, given)).toEqual([
      { subject: 'replay of evt_b', severity: 'error', message: 'answered 300, expected 2XX' },
      { subject: 'processed count of evt_b', severity: 'error', message: 'processed 0 times after an original, a duplicate and a replay; expected once' },
      { subject: 'processed count of evt_c', severity: 'error', message: 'processed 2 times after an original, a duplicate and a replay; expected once' },
    ]);
    expect(judge(receiverIdempotent, receiver(dup(200), { duplicateEventIds: ['evt_missing'], processed: new Map() }))).toEqual([
      { subject: 'processed count of evt_missing', severity: 'error', message: 'processed 0 times after an original, a duplicate and a replay; expected once' },
    ]);
  });

  it('an unreadable probe endpoint is an error on the endpoint, even when the probes were answered well', () => {
    expect(judge(receiverIdempotent, receiver(dup(200), { duplicateEventIds: ['evt_dup'], probeError: 'timed out', processed: new Map([['evt_dup', 1]]) }))).toEqual([
      { subject: 'probe endpoint', severity: 'error', message: 'the probe endpoint could not be read: timed out' },
    ]);
  });

  it('without duplicate probes, the processed counts alone are judged', () => {
    expect(judge(receiverIdempotent, receiver([], { duplicateEventIds: ['evt_dup'], processed: new Map([['evt_dup', 1]]) }))).toEqual({ skipped: 'no duplicate probe was sent' });
  });
});
