import { describe, expect, it } from 'vitest';
import { senderTimeoutIsFailure } from '../../../../conformance/rules/webhooks/sender-timeout-is-failure.js';
import type { CapturedDelivery, SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { view, type View } from '../view.js';
import { delivery, phase, phases } from './fixtures.js';

// Time scale 1: the sender gives up at 30 s and retries 5 s after.
const held = (endedAt: number, abandonedBySender = true): CapturedDelivery => delivery(() => {}, { seq: 1, phase: 'timeout', receivedAt: 0, endedAt, answer: 'hold', abandonedBySender });
const retryAt = (receivedAt: number): CapturedDelivery => delivery(() => {}, { seq: 2, phase: 'timeout', receivedAt, endedAt: receivedAt + 1 });
const timeout = (...deliveries: CapturedDelivery[]) => phases(phase('timeout', deliveries));

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['gave up at 30 s, retried 5 s later', { given: timeout(held(30000), retryAt(35000)), want: [] }],
  // Times are the certifier's clock, not zero at the attempt: the hold is the difference.
  ['the same an hour into the run', { given: timeout({ ...held(3_630_000), receivedAt: 3_600_000 }, retryAt(3_635_000)), want: [] }],
  ['gave up after 10 s, an hour into the run', { given: timeout({ ...held(3_610_000), receivedAt: 3_600_000 }, retryAt(3_615_000)), want: ['the sender gave up after 10 s; expected 30 s (accepted 28.485 s to 46 s)'] }],
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

// The time-out (30 s) and the first retry delay (5 s) are stated (sections 3.2 and 8); at time scale 1 the
// certifier accepts a give-up within [28.485 s, 46 s] and the retry within [4.735 s, 8.5 s] after it. Both
// sides of both windows, at each edge and one ms past it.
describe('issue 38: sender-timeout-is-failure judges both sides of the time-out and of the retry after it', () => {
  const finding = (message: string) => [{ subject: 'timeout phase (first attempt unanswered)', severity: 'error', message }];

  it('a give-up at 28.485 s or at 46 s is accepted; 1 ms earlier or later is an error finding', () => {
    expect(judge(senderTimeoutIsFailure, timeout(held(28485), retryAt(28485 + 5000)))).toEqual([]);
    expect(judge(senderTimeoutIsFailure, timeout(held(46000), retryAt(46000 + 5000)))).toEqual([]);
    expect(judge(senderTimeoutIsFailure, timeout(held(28484), retryAt(28484 + 5000)))).toEqual(finding('the sender gave up after 28.484 s; expected 30 s (accepted 28.485 s to 46 s)'));
    expect(judge(senderTimeoutIsFailure, timeout(held(46001), retryAt(46001 + 5000)))).toEqual(finding('the sender gave up after 46.001 s; expected 30 s (accepted 28.485 s to 46 s)'));
  });

  it('a sender that holds an unanswered attempt for hours fails', () => {
    expect(judge(senderTimeoutIsFailure, timeout(held(3_600_000), retryAt(3_605_000)))).toEqual(finding('the sender gave up after 3600 s; expected 30 s (accepted 28.485 s to 46 s)'));
  });

  it('the retry 4.735 s or 8.5 s after the time-out is accepted; 1 ms earlier or later is an error finding', () => {
    expect(judge(senderTimeoutIsFailure, timeout(held(30000), retryAt(30000 + 4735)))).toEqual([]);
    expect(judge(senderTimeoutIsFailure, timeout(held(30000), retryAt(30000 + 8500)))).toEqual([]);
    expect(judge(senderTimeoutIsFailure, timeout(held(30000), retryAt(30000 + 4734)))).toEqual(finding('the retry came 4.734 s after the attempt timed out; expected 5 s (accepted 4.735 s to 8.5 s)'));
    expect(judge(senderTimeoutIsFailure, timeout(held(30000), retryAt(30000 + 8501)))).toEqual(finding('the retry came 8.501 s after the attempt timed out; expected 5 s (accepted 4.735 s to 8.5 s)'));
  });

  it('a retry hours after the time-out fails', () => {
    expect(judge(senderTimeoutIsFailure, timeout(held(30000), retryAt(30000 + 7_200_000)))).toEqual(finding('the retry came 7200 s after the attempt timed out; expected 5 s (accepted 4.735 s to 8.5 s)'));
  });

  it('a stall of the certifier around the retry widens its window on both sides', () => {
    const stalled = { ...retryAt(30000 + 4700), stampDelayMs: 40 };
    expect(judge(senderTimeoutIsFailure, timeout(held(30000), stalled))).toEqual([]);
    expect(judge(senderTimeoutIsFailure, timeout(held(30000), { ...retryAt(30000 + 8540), stampDelayMs: 40 }))).toEqual([]);
    expect(judge(senderTimeoutIsFailure, timeout(held(30000), { ...retryAt(30000 + 8541), stampDelayMs: 40 }))).toEqual(finding('the retry came 8.541 s after the attempt timed out; expected 5 s (accepted 4.695 s to 8.54 s)'));
  });

  it('with delays counted from the start of an attempt, the retry is due the time-out plus the first delay after the attempt began', () => {
    const fromStart = (o: SenderObservations): SenderObservations => ({ ...o, timing: { ...o.timing, from: 'start' } });
    expect(judge(senderTimeoutIsFailure, fromStart(timeout(held(30000), retryAt(35000))))).toEqual([]);
    expect(judge(senderTimeoutIsFailure, fromStart(timeout(held(30000), retryAt(33235))))).toEqual([]);
    expect(judge(senderTimeoutIsFailure, fromStart(timeout(held(30000), retryAt(33234))))).toEqual(
      finding('the retry came 33.234 s after the attempt started; expected 35 s (accepted 33.235 s to 53.5 s)'),
    );
    expect(judge(senderTimeoutIsFailure, fromStart(timeout(held(30000), retryAt(53500))))).toEqual([]);
    expect(judge(senderTimeoutIsFailure, fromStart(timeout(held(30000), retryAt(53501))))).toEqual(
      finding('the retry came 53.501 s after the attempt started; expected 35 s (accepted 33.235 s to 53.5 s)'),
    );
  });

  it('a sender that never gave up is not judged on when its retry came, and one with no retry is told both', () => {
    expect(judge(senderTimeoutIsFailure, timeout(held(60000, false)))).toEqual([
      ...finding('the sender did not give up on the unanswered attempt within 46 s (time-out 30 s)'),
      ...finding('no retry followed the unanswered attempt: a time-out must count as a failed attempt'),
    ]);
    expect(judge(senderTimeoutIsFailure, timeout({ ...held(30000), endedAt: undefined }, retryAt(999_999)))).toEqual(
      finding('the sender did not give up on the unanswered attempt within 46 s (time-out 30 s)'),
    );
  });

  it('a phase that could not run says why', () => {
    expect(judge(senderTimeoutIsFailure, phases(phase('timeout', [], { skipped: 'could not raise the event: 503' })))).toEqual(finding('could not raise the event: 503'));
  });
});
