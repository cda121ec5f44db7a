import { describe, expect, it } from 'vitest';
import { senderDelivers } from '../../../../conformance/rules/webhooks/sender-delivers.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
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
