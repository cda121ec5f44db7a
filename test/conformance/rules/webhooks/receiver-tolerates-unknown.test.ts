import { describe, expect, it } from 'vitest';
import { receiverToleratesUnknown } from '../../../../conformance/rules/webhooks/receiver-tolerates-unknown.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const FIELDS = 'valid delivery with fields this contract version does not name';
const EVENT = 'valid delivery of an event the catalog does not list (order.archived)';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['unknown fields and an unknown event acknowledged', { given: receiver([probe('unknown', FIELDS, 200), probe('unknown', EVENT, 202, 'any')]), want: [] }],
  ['an unknown event refused (the receiver may)', { given: receiver([probe('unknown', FIELDS, 200), probe('unknown', EVENT, 400, 'any')]), want: [] }],
  [
    'unknown fields refused',
    { given: receiver([probe('unknown', FIELDS, 400), probe('unknown', EVENT, 200, 'any')]), want: ['warning: answered 400: a delivery with fields this version does not name was refused; ignore unknown fields'] },
  ],
  ['no unknown probe sent (skipped)', { given: receiver([probe('valid', 'valid order.created', 200)]), want: 'skipped' }],
];

describe('receiver-tolerates-unknown', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverToleratesUnknown, given)).toEqual(want);
  });
});

describe('receiver-tolerates-unknown findings', () => {
  it('advice naming the probe refused; no answer counts as refused', () => {
    expect(judge(receiverToleratesUnknown, receiver([probe('unknown', 'fields', null), probe('unknown', 'event', 500, 'any')]))).toEqual([
      { subject: 'fields', severity: 'warning', message: 'answered no HTTP answer (ECONNRESET): a delivery with fields this version does not name was refused; ignore unknown fields' },
    ]);
    expect(skipReason(receiverToleratesUnknown, receiver([probe('valid', 'v', 200)]))).toBe('no unknown probe was sent');
  });
});
