import { describe, expect, it } from 'vitest';
import { senderTimeoutIsFailure } from '../../../../conformance/rules/webhooks/sender-timeout-is-failure.js';
import type { CapturedDelivery, SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
import { delivery, phase, phases } from './fixtures.js';

// Time scale 1: the sender gives up at 30 s and retries 5 s after.
const held = (endedAt: number, abandonedBySender = true): CapturedDelivery => delivery(() => {}, { seq: 1, phase: 'timeout', receivedAt: 0, endedAt, answer: 'hold', abandonedBySender });
const retryAt = (receivedAt: number): CapturedDelivery => delivery(() => {}, { seq: 2, phase: 'timeout', receivedAt, endedAt: receivedAt + 1 });
const timeout = (...deliveries: CapturedDelivery[]) => phases(phase('timeout', deliveries));

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['gave up at 30 s, retried 5 s later', { given: timeout(held(30000), retryAt(35000)), want: [] }],
  ['gave up at 28 s by a late-stamped arrival (a 2 s stall of the certifier around it)', { given: timeout({ ...held(28000), receivedAt: 0, stampDelayMs: 2000 }, retryAt(33000)), want: [] }],
  ['gave up after 10 s', { given: timeout(held(10000), retryAt(15000)), want: ['the sender gave up after 10 s; expected 30 s (accepted 28.485 s to 46 s)'] }],
  ['never gave up (the certifier closed it)', { given: timeout(held(60000, false), retryAt(65000)), want: ['the sender did not give up on the unanswered attempt within 46 s (time-out 30 s)'] }],
  ['no retry after the time-out', { given: timeout(held(30000)), want: ['no retry followed the unanswered attempt: a time-out must count as a failed attempt'] }],
  ['the phase did not run', { given: phases(), want: ['the time-out phase did not run'] }],
];

describe('sender-timeout-is-failure', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderTimeoutIsFailure, given)).toEqual(want);
  });
});
