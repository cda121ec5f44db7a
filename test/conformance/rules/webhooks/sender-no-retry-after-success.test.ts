import { describe, expect, it } from 'vitest';
import { senderNoRetryAfterSuccess } from '../../../../conformance/rules/webhooks/sender-no-retry-after-success.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
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
