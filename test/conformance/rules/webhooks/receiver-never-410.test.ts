import { describe, expect, it } from 'vitest';
import { receiverNever410 } from '../../../../conformance/rules/webhooks/receiver-never-410.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['no 410 anywhere', { given: receiver([probe('valid', 'valid order.created', 200), probe('bad-signature', 'N01', 401, 'non-2XX')]), want: [] }],
  ['a 410 to a forged request', { given: receiver([probe('bad-signature', 'N01 signature header missing', 410, 'non-2XX')]), want: ['warning: answered 410'] }],
  ['no probe sent (skipped)', { given: receiver([]), want: 'skipped' }],
];

describe('receiver-never-410', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverNever410, given)).toEqual(want);
  });
});

describe('receiver-never-410 findings', () => {
  it('name every probe answered 410, valid or hostile, and nothing else', () => {
    expect(judge(receiverNever410, receiver([probe('valid', 'valid order.created', 410), probe('bad-signature', 'N01', 401, 'non-2XX'), probe('unknown', 'order.archived', 410, 'any'), probe('test', 't', null)]))).toEqual([
      { subject: 'valid order.created', severity: 'warning', message: 'answered 410' },
      { subject: 'order.archived', severity: 'warning', message: 'answered 410' },
    ]);
    expect(skipReason(receiverNever410, receiver([]))).toBe('no probe was sent');
  });
});
