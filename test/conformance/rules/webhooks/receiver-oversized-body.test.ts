import { describe, expect, it } from 'vitest';
import { receiverOversizedBody } from '../../../../conformance/rules/webhooks/receiver-oversized-body.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
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
