import { describe, expect, it } from 'vitest';
import { receiverAcceptsValid } from '../../../../conformance/rules/webhooks/receiver-accepts-valid.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['every valid delivery answered 2XX', { given: receiver([probe('valid', 'valid order.created', 200), probe('valid', 'valid product.created', 204)]), want: [] }],
  ['a valid delivery refused', { given: receiver([probe('valid', 'valid order.created', 401)]), want: ['answered 401, expected 2XX'] }],
  ['no answer at all', { given: receiver([probe('valid', 'valid order.created', null)]), want: ['answered no HTTP answer (ECONNRESET), expected 2XX'] }],
  ['no valid probe sent (skipped)', { given: receiver([]), want: 'skipped' }],
];

describe('receiver-accepts-valid', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverAcceptsValid, given)).toEqual(want);
  });
});
