import { describe, expect, it } from 'vitest';
import { receiverHeaderBodyMismatch } from '../../../../conformance/rules/webhooks/receiver-header-body-mismatch.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['a mismatch refused', { given: receiver([probe('header-mismatch', 'N38 X-SVC-Event-ID differs', 400, 'non-2XX')]), want: [] }],
  ['a mismatch accepted', { given: receiver([probe('header-mismatch', 'N38 X-SVC-Event-ID differs', 200, 'non-2XX')]), want: ['answered 200: the header/body mismatch was accepted'] }],
];

describe('receiver-header-body-mismatch', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverHeaderBodyMismatch, given)).toEqual(want);
  });
});
