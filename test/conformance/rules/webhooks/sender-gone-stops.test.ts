import { describe, expect, it } from 'vitest';
import { senderGoneStops } from '../../../../conformance/rules/webhooks/sender-gone-stops.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
import { timingModel } from '../../../../conformance/webhooks/timing.js';
import { attempts, body, delivery, phase, phases } from './fixtures.js';

const first = attempts('gone', [[0, 10]], { answer: 410 });
const afterGone = { triggered: true, note: 'another event was raised after the 410' };

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['nothing after the 410, another event raised', { given: phases(phase('gone', first, { afterGone })), want: [] }],
  ['a retry after the 410', { given: phases(phase('gone', [...first, delivery(() => {}, { seq: 2, phase: 'gone', receivedAt: 5010 })], { afterGone })), want: ['delivery #2 (a retry of the same event) came 5 s after the 410'] }],
  [
    'another event after the 410',
    { given: phases(phase('gone', [...first, delivery(body((b) => (b.event_id = b.payload.event_id = 'evt_later')), { seq: 2, phase: 'gone', receivedAt: 1010 })], { afterGone })), want: ['delivery #2 (another event) came 1 s after the 410'] },
  ],
  ['no second event could be raised (half observed: skipped)', { given: phases(phase('gone', first)), want: 'skipped' }],
  ['the 410 phase did not run', { given: phases(), want: ['the 410 phase did not run'] }],
  [
    'a retry after a 410 that may have come after the sender\'s time-out: skipped',
    {
      given: { ...phases(phase('gone', [{ ...first[0], stampDelayMs: 40 }, delivery(() => {}, { seq: 2, phase: 'gone', receivedAt: 60 })], { afterGone })), timing: timingModel({ timeScale: 0.002 }) },
      want: 'skipped',
    },
  ],
];

describe('sender-gone-stops', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderGoneStops, given)).toEqual(want);
  });
});
