import { describe, expect, it } from 'vitest';
import { senderDelivers } from '../../../../conformance/rules/webhooks/sender-delivers.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { attempts, phase, phases } from './fixtures.js';

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['every phase got its delivery', { given: phases(phase('delivered', attempts('delivered', [[0, 1]])), phase('gone', attempts('gone', [[10, 11]]))), want: [] }],
  ['a phase got nothing', { given: phases(phase('delivered', attempts('delivered', [[0, 1]])), phase('test', [])), want: ['nothing arrived'] }],
  ['a phase that could not raise its event says why', { given: phases(phase('retry', [], { skipped: 'could not raise the event: 503' })), want: ['could not raise the event: 503'] }],
  ['no phase ran (skipped, not passed)', { given: phases(), want: 'skipped' }],
];

describe('sender-delivers', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderDelivers, given)).toEqual(want);
  });
});

describe('sender-delivers findings', () => {
  it('one error per silent phase, named, in the order the phases run', () => {
    const given = phases(phase('gone', []), phase('retry', [], { skipped: 'could not raise the event: 503' }), phase('test', []), phase('timeout', []), phase('delivered', []));
    expect(judge(senderDelivers, given)).toEqual([
      { subject: 'delivered phase', severity: 'error', message: 'nothing arrived' },
      { subject: 'test phase', severity: 'error', message: 'nothing arrived' },
      { subject: 'timeout phase', severity: 'error', message: 'nothing arrived' },
      { subject: 'retry phase', severity: 'error', message: 'could not raise the event: 503' },
      { subject: 'gone phase', severity: 'error', message: 'nothing arrived' },
    ]);
    expect(judge(senderDelivers, phases(phase('timeout', attempts('timeout', [[0, 1]]))))).toEqual([]);
    expect(skipReason(senderDelivers, phases())).toBe('no phase ran');
  });
});
