import { describe, expect, it } from 'vitest';
import { receiverRejectsBadContent } from '../../../../conformance/rules/webhooks/receiver-rejects-bad-content.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['bad content refused', { given: receiver([probe('bad-content', 'N31 malformed JSON with a valid signature', 400, 'non-2XX')]), want: [] }],
  // Only the signature check is stated (sections 5.5, 7): acknowledging signed bad content is advice.
  [
    'signed bad content acknowledged',
    {
      given: receiver([probe('bad-content', 'N35 schema violation (payload.store_id missing) with a valid signature', 200, 'non-2XX')]),
      want: ['warning: answered 200: signed content that is not a valid delivery was acknowledged; make sure it is not processed'],
    },
  ],
];

describe('receiver-rejects-bad-content', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverRejectsBadContent, given)).toEqual(want);
  });
});

describe('receiver-rejects-bad-content findings', () => {
  it('advice naming the probe acknowledged; a refusal of any kind passes; skipped when not sent', () => {
    expect(judge(receiverRejectsBadContent, receiver([probe('bad-content', 'N31', 202, 'non-2XX'), probe('bad-content', 'N32', 300, 'non-2XX'), probe('bad-content', 'N33', null, 'non-2XX'), probe('valid', 'v', 200)]))).toEqual([
      { subject: 'N31', severity: 'warning', message: 'answered 202: signed content that is not a valid delivery was acknowledged; make sure it is not processed' },
    ]);
    expect(skipReason(receiverRejectsBadContent, receiver([probe('valid', 'v', 200)]))).toBe('no bad-content probe was sent');
  });
});
