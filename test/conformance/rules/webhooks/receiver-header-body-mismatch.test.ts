import { describe, expect, it } from 'vitest';
import { receiverHeaderBodyMismatch } from '../../../../conformance/rules/webhooks/receiver-header-body-mismatch.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['a mismatch refused', { given: receiver([probe('header-mismatch', 'N38 X-SVC-Event-ID differs', 400, 'non-2XX')]), want: [] }],
  ['a mismatch accepted', { given: receiver([probe('header-mismatch', 'N38 X-SVC-Event-ID differs', 200, 'non-2XX')]), want: ['warning: answered 200: the header/body mismatch was accepted'] }],
];

describe('receiver-header-body-mismatch', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverHeaderBodyMismatch, given)).toEqual(want);
  });
});

describe('receiver-header-body-mismatch findings', () => {
  it('name the probe accepted, judge only the mismatch probes, and skip when none was sent', () => {
    expect(judge(receiverHeaderBodyMismatch, receiver([probe('header-mismatch', 'N38', 204, 'non-2XX'), probe('header-mismatch', 'N39', 300, 'non-2XX'), probe('valid', 'v', 200)]))).toEqual([
      { subject: 'N38', severity: 'warning', message: 'answered 204: the header/body mismatch was accepted' },
    ]);
    expect(skipReason(receiverHeaderBodyMismatch, receiver([probe('valid', 'v', 200)]))).toBe('no header-mismatch probe was sent');
  });
});
