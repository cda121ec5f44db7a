import { describe, expect, it } from 'vitest';
import { receiverOversizedBody } from '../../../../conformance/rules/webhooks/receiver-oversized-body.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['refused with 413', { given: receiver([probe('oversize', 'valid signed delivery of 8388608 bytes', 413, '413')]), want: [] }],
  // The interface document sets no size limit: the 413 is the receiver kit's design, advice.
  ['accepted', { given: receiver([probe('oversize', 'valid signed delivery of 8388608 bytes', 200, '413')]), want: ['warning: answered 200, expected 413'] }],
];

describe('receiver-oversized-body', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverOversizedBody, given)).toEqual(want);
  });
});

describe('receiver-oversized-body findings', () => {
  it('advice (a warning even in a failing run) naming the probe; only 413 passes; skipped when not sent', () => {
    expect(judge(receiverOversizedBody, receiver([probe('oversize', 'big', 400, '413'), probe('oversize', 'big2', 413, '413'), probe('valid', 'v', 500)]))).toEqual([
      { subject: 'big', severity: 'warning', message: 'answered 400, expected 413' },
    ]);
    expect(judge(receiverOversizedBody, receiver([probe('oversize', 'big', 400, '413')]), { strict: true })).toEqual([{ subject: 'big', severity: 'error', message: 'answered 400, expected 413' }]);
    expect(skipReason(receiverOversizedBody, receiver([probe('valid', 'v', 200)]))).toBe('no oversize probe was sent');
  });
});
