import { describe, expect, it } from 'vitest';
import { receiverNo5xxOnBadInput } from '../../../../conformance/rules/webhooks/receiver-no-5xx-on-bad-input.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['hostile probes get 4XX', { given: receiver([probe('bad-signature', 'N05', 401, 'non-2XX'), probe('oversize', 'big', 413, '413')]), want: [] }],
  ['a crash on a malformed signature', { given: receiver([probe('bad-signature', 'N05 bare hex without prefix', 500, 'non-2XX')]), want: ['answered 500'] }],
  ['valid raw-bytes probes are not hostile', { given: receiver([probe('raw-bytes', 'indented', 503)]), want: [] }],
];

describe('receiver-no-5xx-on-bad-input', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverNo5xxOnBadInput, given)).toEqual(want);
  });
});
