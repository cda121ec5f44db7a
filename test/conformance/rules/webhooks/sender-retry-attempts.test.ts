import { describe, expect, it } from 'vitest';
import { senderRetryAttempts } from '../../../../conformance/rules/webhooks/sender-retry-attempts.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
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
