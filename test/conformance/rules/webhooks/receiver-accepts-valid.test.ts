import { describe, expect, it } from 'vitest';
import { receiverAcceptsValid } from '../../../../conformance/rules/webhooks/receiver-accepts-valid.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
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

describe('receiver-accepts-valid findings', () => {
  it('name the probe refused, as errors, and judge only the valid probes', () => {
    expect(judge(receiverAcceptsValid, receiver([probe('valid', 'valid order.created', 200), probe('valid', 'valid product.created', 300), probe('bad-signature', 'N01', 401, 'non-2XX')]))).toEqual([
      { subject: 'valid product.created', severity: 'error', message: 'answered 300, expected 2XX' },
    ]);
    expect(skipReason(receiverAcceptsValid, receiver([probe('bad-signature', 'N01', 401, 'non-2XX')]))).toBe('no valid probe was sent');
  });
});
