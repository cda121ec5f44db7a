import { describe, expect, it } from 'vitest';
import { senderRetrySchedule } from '../../../../conformance/rules/webhooks/sender-retry-schedule.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
import { attempts, phase, phases } from './fixtures.js';

// Time scale 1: retries due 5 s, 30 s and 300 s after the previous attempt ended.
const retry = (times: Array<[number, number]>) => phases(phase('retry', attempts('retry', times, { answer: 500 })));

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['on schedule', { given: retry([[0, 10], [5010, 5020], [35020, 35030], [335030, 335040]]), want: [] }],
  ['a little late, within the tolerance', { given: retry([[0, 10], [5900, 5910]]), want: [] }],
  ['every retry after the first delay', { given: retry([[0, 10], [5010, 5020], [10020, 10030]]), want: ['came 5 s after attempt 2 ended; expected 30 s (accepted 28.5 s to 46 s)'] }],
  [
    'a punctual retry stamped early by a stall of the certifier around it',
    { given: phases(phase('retry', [attempts('retry', [[0, 1000]])[0], { ...attempts('retry', [[0, 10], [5500, 5510]])[1], stampDelayMs: 1000 }])), want: [] },
  ],
  ['a retry far too early', { given: retry([[0, 10], [1010, 1020]]), want: ['came 1 s after attempt 1 ended; expected 5 s (accepted 4.735 s to 8.5 s)'] }],
  ['one attempt only: nothing to time (skipped)', { given: retry([[0, 10]]), want: 'skipped' }],
];

describe('sender-retry-schedule', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderRetrySchedule, given)).toEqual(want);
  });
});
