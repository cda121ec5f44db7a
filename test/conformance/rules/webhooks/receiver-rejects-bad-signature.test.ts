import { describe, expect, it } from 'vitest';
import { receiverRejectsBadSignature } from '../../../../conformance/rules/webhooks/receiver-rejects-bad-signature.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
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

describe('receiver-rejects-bad-signature findings', () => {
  it('an error naming the probe accepted; a refusal of any kind passes; skipped when not sent', () => {
    expect(judge(receiverRejectsBadSignature, receiver([probe('bad-signature', 'N17', 299, 'non-2XX'), probe('bad-signature', 'N18', 300, 'non-2XX'), probe('bad-signature', 'N19', null, 'non-2XX'), probe('valid', 'v', 200)]))).toEqual([
      { subject: 'N17', severity: 'error', message: 'answered 299: the bad signature was accepted' },
    ]);
    expect(skipReason(receiverRejectsBadSignature, receiver([probe('valid', 'v', 200)]))).toBe('no bad-signature probe was sent');
  });
});
