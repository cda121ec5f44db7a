import { describe, expect, it } from 'vitest';
import { receiverNo5xxOnBadInput } from '../../../../conformance/rules/webhooks/receiver-no-5xx-on-bad-input.js';
import type { ReceiverObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { probe, receiver } from './fixtures.js';

const cases: Array<[string, { given: ReceiverObservations; want: View }]> = [
  ['hostile probes get 4XX', { given: receiver([probe('bad-signature', 'N05', 401, 'non-2XX'), probe('oversize', 'big', 413, '413')]), want: [] }],
  ['a crash on a malformed signature', { given: receiver([probe('bad-signature', 'N05 bare hex without prefix', 500, 'non-2XX')]), want: ['warning: answered 500'] }],
  ['valid raw-bytes probes are not hostile', { given: receiver([probe('raw-bytes', 'indented', 503)]), want: [] }],
];

describe('receiver-no-5xx-on-bad-input', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(receiverNo5xxOnBadInput, given)).toEqual(want);
  });
});

describe('receiver-no-5xx-on-bad-input findings', () => {
  it('a 5XX from 500 up to any hostile probe of every group is an error on that probe; 499 and no answer are not', () => {
    const hostile = (group: Parameters<typeof probe>[0], status: number | null) => probe(group, `${group} ${status}`, status, group === 'oversize' ? '413' : 'non-2XX');
    expect(
      judge(receiverNo5xxOnBadInput, receiver([hostile('bad-signature', 499), hostile('bad-signature', 500), hostile('bad-content', 503), hostile('header-mismatch', 599), hostile('raw-bytes', 502), hostile('oversize', 507), hostile('bad-content', null)])),
    ).toEqual([
      { subject: 'bad-signature 500', severity: 'warning', message: 'answered 500' },
      { subject: 'bad-content 503', severity: 'warning', message: 'answered 503' },
      { subject: 'header-mismatch 599', severity: 'warning', message: 'answered 599' },
      { subject: 'raw-bytes 502', severity: 'warning', message: 'answered 502' },
      { subject: 'oversize 507', severity: 'warning', message: 'answered 507' },
    ]);
  });

  it('probes of the other groups are not its to judge; with none of its groups it is skipped', () => {
    expect(skipReason(receiverNo5xxOnBadInput, receiver([probe('valid', 'v', 500), probe('duplicate', 'd', 500), probe('test', 't', 500), probe('unknown', 'u', 500, 'any'), probe('out-of-order', 'o', 500)]))).toBe(
      'no bad-signature or bad-content or header-mismatch or raw-bytes or oversize probe was sent',
    );
  });
});
