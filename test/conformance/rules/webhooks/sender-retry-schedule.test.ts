import { describe, expect, it } from 'vitest';
import { senderRetrySchedule } from '../../../../conformance/rules/webhooks/sender-retry-schedule.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { ms } from '../../../../conformance/rules/shared/timing.js';
import { skipReason, view, type View } from '../view.js';
import { attempts, phase, phases } from './fixtures.js';

// Time scale 1: retries due 5 s, 30 s and 300 s after the previous attempt ended.
const retry = (times: Array<[number, number]>) => phases(phase('retry', attempts('retry', times, { answer: 500 })));

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['on schedule', { given: retry([[0, 10], [5010, 5020], [35020, 35030], [335030, 335040]]), want: [] }],
  ['a little late, within the tolerance', { given: retry([[0, 10], [5900, 5910]]), want: [] }],
  ['every retry after the first delay', { given: retry([[0, 10], [5010, 5020], [10020, 10030]]), want: ['came 5 s after attempt 2 ended; expected 30 s (accepted 28.485 s to 46 s)'] }],
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

// The seed's schedule (sections 3.2 and 8): retries 5 s, 30 s and 5 minutes after the failed attempt. At time
// scale 1 the certifier accepts [expected × 0.95 − 15 ms, expected × 1.5 + 1000 ms] (describeTolerances):
// 4.735 s to 8.5 s, 28.485 s to 46 s, 284.985 s to 451 s. Each retry is judged on both sides, at each edge
// and one ms past it; the other retries stay on time, so each finding names one retry.
describe('issue 38: sender-retry-schedule judges both sides of each retry\'s window', () => {
  const edges = [
    { retry: 1, expected: 5000, min: 4735, max: 8500 },
    { retry: 2, expected: 30000, min: 28485, max: 46000 },
    { retry: 3, expected: 300000, min: 284985, max: 451000 },
  ];
  /** Four attempts, each ending 10 ms after it arrived, on time except retry `n`, which comes `gap` ms after attempt n ended. */
  const withGap = (n: number, gap: number): SenderObservations => {
    const times: Array<[number, number]> = [[0, 10]];
    for (let i = 1; i <= 3; i++) {
      const start = times[i - 1][1] + (i === n ? gap : edges[i - 1].expected);
      times.push([start, start + 10]);
    }
    return retry(times);
  };
  const message = (e: (typeof edges)[number], gap: number) =>
    `came ${ms(gap)} after attempt ${e.retry} ended; expected ${ms(e.expected)} (accepted ${ms(e.min)} to ${ms(e.max)})`;

  for (const e of edges) {
    it(`retry ${e.retry}: accepted at ${e.min} ms and at ${e.max} ms, the edges of its window`, () => {
      expect(view(senderRetrySchedule, withGap(e.retry, e.min))).toEqual([]);
      expect(view(senderRetrySchedule, withGap(e.retry, e.max))).toEqual([]);
    });
    it(`retry ${e.retry}: 1 ms too early is an error finding on that retry`, () => {
      expect(judge(senderRetrySchedule, withGap(e.retry, e.min - 1))).toEqual([{ subject: `retry ${e.retry}`, severity: 'error', message: message(e, e.min - 1) }]);
    });
    it(`retry ${e.retry}: 1 ms too late is an error finding on that retry`, () => {
      expect(judge(senderRetrySchedule, withGap(e.retry, e.max + 1))).toEqual([{ subject: `retry ${e.retry}`, severity: 'error', message: message(e, e.max + 1) }]);
    });
  }

  it('a sender that retries hours late fails certification on every late retry', () => {
    const hour = 3_600_000;
    expect(view(senderRetrySchedule, retry([[0, 10], [10 + 2 * hour, 20 + 2 * hour], [20 + 4 * hour, 30 + 4 * hour], [30 + 6 * hour, 40 + 6 * hour]]))).toEqual([
      'came 7200 s after attempt 1 ended; expected 5 s (accepted 4.735 s to 8.5 s)',
      'came 7200 s after attempt 2 ended; expected 30 s (accepted 28.485 s to 46 s)',
      'came 7200 s after attempt 3 ended; expected 300 s (accepted 284.985 s to 451 s)',
    ]);
  });
});

describe('sender-retry-schedule: reference point, stalls and what it leaves to other rules', () => {
  it('with delays counted from the start of an attempt, the gap is measured from the arrival of the previous attempt', () => {
    const fromStart = (o: SenderObservations): SenderObservations => ({ ...o, timing: { ...o.timing, from: 'start' } });
    // The previous attempt took 3 s: on time from its start, 3 s early from its end.
    expect(view(senderRetrySchedule, fromStart(retry([[0, 3000], [5000, 5010]])))).toEqual([]);
    expect(view(senderRetrySchedule, fromStart(retry([[0, 3000], [4734, 4744]])))).toEqual(['came 4.734 s after attempt 1 started; expected 5 s (accepted 4.735 s to 8.5 s)']);
    expect(view(senderRetrySchedule, retry([[0, 3000], [5000, 5010]]))).toEqual(['came 2 s after attempt 1 ended; expected 5 s (accepted 4.735 s to 8.5 s)']);
  });

  it('an attempt whose end is unknown is timed from its arrival', () => {
    expect(view(senderRetrySchedule, phases(phase('retry', attempts('retry', [[0, undefined], [4734, 4744]]))))).toEqual(['came 4.734 s after attempt 1 ended; expected 5 s (accepted 4.735 s to 8.5 s)']);
  });

  it('a stall around the later attempt widens the window too', () => {
    const [a, b] = attempts('retry', [[0, 10], [10 + 8500 + 40, 10 + 8550]]);
    expect(view(senderRetrySchedule, phases(phase('retry', [a, { ...b, stampDelayMs: 40 }])))).toEqual([]);
    expect(view(senderRetrySchedule, phases(phase('retry', [a, { ...b, stampDelayMs: 39 }])))).toEqual(['came 8.54 s after attempt 1 ended; expected 5 s (accepted 4.696 s to 8.539 s)']);
  });

  it('attempts beyond the last stated delay are not timed (sender-retry-attempts counts them)', () => {
    expect(view(senderRetrySchedule, retry([[0, 10], [5010, 5020], [35020, 35030], [335030, 335040], [335050, 335060]]))).toEqual([]);
  });

  it('says why it is skipped', () => {
    expect(skipReason(senderRetrySchedule, phases())).toBe('fewer than two attempts: nothing to time (see sender-retry-attempts)');
    expect(skipReason(senderRetrySchedule, phases(phase('retry', [], { skipped: 'could not raise the event: 503' })))).toBe('could not raise the event: 503');
  });
});
