import { describe, expect, it } from 'vitest';
import { receiverRejectsBadSignature } from '../../../../conformance/rules/webhooks/receiver-rejects-bad-signature.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['a bad signature refused', { given: receiver([probe('bad-signature', 'N01 signature header missing', 401, 'non-2XX')]), want: [] }],
  ['a bad signature accepted', { given: receiver([probe('bad-signature', 'N17 one body byte flipped', 200, 'non-2XX')]), want: ['answered 200: the bad signature was accepted'] }],
];

describe('receiver-rejects-bad-signature', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverRejectsBadSignature, given)).toEqual(want);
  });
});
