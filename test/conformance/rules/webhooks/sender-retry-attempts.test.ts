import { describe, expect, it } from 'vitest';
import { senderRetryAttempts } from '../../../../conformance/rules/webhooks/sender-retry-attempts.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { view, type View } from '../view.js';
import { attempts, phase, phases } from './fixtures.js';

const retry = (n: number) => phase('retry', attempts('retry', Array.from({ length: n }, (_, i) => [i * 1000, i * 1000 + 1] as [number, number]), { answer: 500 }));

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['exactly four attempts', { given: phases(retry(4)), want: [] }],
  ['three attempts', { given: phases(retry(3)), want: ['only 3 attempt(s) arrived; expected 4'] }],
  ['five attempts', { given: phases(retry(5)), want: ['5 attempts arrived; expected exactly 4'] }],
  ['the retry phase did not run (a failure: retries are the point)', { given: phases(), want: ['the retry phase did not run'] }],
];

describe('sender-retry-attempts', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderRetryAttempts, given)).toEqual(want);
  });
});

describe('sender-retry-attempts findings', () => {
  const subject = 'retry phase (500 to every attempt)';
  it('errors on the retry phase: too few, too many, or why it could not run', () => {
    expect(judge(senderRetryAttempts, phases(retry(1)))).toEqual([{ subject, severity: 'error', message: 'only 1 attempt(s) arrived; expected 4' }]);
    expect(judge(senderRetryAttempts, phases(phase('retry', [], { skipped: 'could not raise the event: 503' })))).toEqual([{ subject, severity: 'error', message: 'could not raise the event: 503' }]);
    expect(judge(senderRetryAttempts, phases(phase('retry', [])))).toEqual([{ subject, severity: 'error', message: 'only 0 attempt(s) arrived; expected 4' }]);
    expect(judge(senderRetryAttempts, phases(phase('retry', attempts('retry', [[0, 1]]), { skipped: 'late' })))).toEqual([{ subject, severity: 'error', message: 'only 1 attempt(s) arrived; expected 4' }]);
  });
});
