import { describe, expect, it } from 'vitest';
import { senderNoRetryAfterSuccess } from '../../../../conformance/rules/webhooks/sender-no-retry-after-success.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { timingModel } from '../../../../conformance/webhooks/timing.js';
import { attempts, phase, phases } from './fixtures.js';

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['one attempt answered 200', { given: phases(phase('delivered', attempts('delivered', [[0, 10]])), phase('test', attempts('test', [[100, 110]]))), want: [] }],
  ['another attempt after the 200', { given: phases(phase('delivered', attempts('delivered', [[0, 10], [5010, 5011]]))), want: ['attempt 2 came 5 s after a 200'] }],
  [
    'a third attempt after the 200 that answered the time-out retry',
    { given: phases(phase('delivered', attempts('delivered', [[0, 10]])), phase('timeout', attempts('timeout', [[0, 30000], [35000, 35001], [40000, 40001]]))), want: ['attempt 3 came after the 200 that answered the retry'] },
  ],
  ['a 200 phase that got nothing (skipped)', { given: phases(phase('delivered', [], { skipped: 'no delivery arrived within 10000 ms of raising the event' })), want: 'skipped' }],
  ['nothing answered 2XX (skipped)', { given: phases(), want: 'skipped' }],
  [
    'our 200 may have reached the sender after its time-out (a busy certifier at a small time scale): skipped',
    { given: { ...phases(phase('delivered', attempts('delivered', [[0, 10], [200, 201]], { stampDelayMs: 40 }))), timing: timingModel({ timeScale: 0.002 }) }, want: 'skipped' },
  ],
];

describe('sender-no-retry-after-success', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderNoRetryAfterSuccess, given)).toEqual(want);
  });
});

describe('sender-no-retry-after-success findings', () => {
  it('every attempt after a 200, in the delivered and the test phase, is an error on its phase', () => {
    const given = phases(phase('delivered', attempts('delivered', [[0, 10], [5010, 5011], [40_010, 40_011]])), phase('test', attempts('test', [[100, 110], [1110, 1111]])));
    expect(judge(senderNoRetryAfterSuccess, given)).toEqual([
      { subject: 'delivered phase', severity: 'error', message: 'attempt 2 came 5 s after a 200' },
      { subject: 'delivered phase', severity: 'error', message: 'attempt 3 came 40 s after a 200' },
      { subject: 'test phase', severity: 'error', message: 'attempt 2 came 1 s after a 200' },
    ]);
  });

  it('the time-out phase: nothing after the 200 that answered its retry; a third attempt is an error', () => {
    const timeout = (third: boolean, answered: [number, number] = [35000, 35001]) =>
      phases(phase('timeout', attempts('timeout', [[0, 30000], answered, ...(third ? [[40000, 40001] as [number, number]] : [])])));
    // Two attempts and nothing after: that phase alone has no 200 followed by anything to judge.
    expect(skipReason(senderNoRetryAfterSuccess, timeout(false))).toBe('no delivery was answered 2XX');
    expect(judge(senderNoRetryAfterSuccess, timeout(true))).toEqual([{ subject: 'timeout phase', severity: 'error', message: 'attempt 3 came after the 200 that answered the retry' }]);
    // Our 200 to the retry took until the earliest time-out the window accepts: the sender may have timed it out.
    expect(skipReason(senderNoRetryAfterSuccess, timeout(true, [35000, 35000 + 28485]))).toBe(
      "timeout phase: our answer to delivery #2 took 28.485 s, with a 0 ms stall of the certifier's event loop around it: too close to the sender's 30 s time-out to tell (use a larger --time-scale)",
    );
  });

  it('says why a part is skipped: a 200 phase that got nothing, or an answer too late to count', () => {
    expect(skipReason(senderNoRetryAfterSuccess, phases(phase('delivered', []), phase('test', [], { skipped: 'the Admin API answered 404' })))).toBe('delivered phase: nothing arrived; test phase: the Admin API answered 404');
    expect(skipReason(senderNoRetryAfterSuccess, phases())).toBe('no delivery was answered 2XX');
    expect(skipReason(senderNoRetryAfterSuccess, phases(phase('delivered', attempts('delivered', [[0, 28485], [30000, 30001]]))))).toBe(
      "delivered phase: our answer to delivery #1 took 28.485 s, with a 0 ms stall of the certifier's event loop around it: too close to the sender's 30 s time-out to tell (use a larger --time-scale)",
    );
  });

  it('a finding in one phase is reported even when another phase is skipped', () => {
    expect(view(senderNoRetryAfterSuccess, phases(phase('delivered', []), phase('test', attempts('test', [[0, 10], [20, 21]]))))).toEqual(['attempt 2 came 10 ms after a 200']);
  });
});
