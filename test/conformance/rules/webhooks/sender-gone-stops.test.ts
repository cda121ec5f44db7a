import { describe, expect, it } from 'vitest';
import { senderGoneStops } from '../../../../conformance/rules/webhooks/sender-gone-stops.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
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

describe('sender-gone-stops findings', () => {
  it('every delivery after the 410 is an error, timed from the end of the 410 exchange', () => {
    const retryAt = (seq: number, receivedAt: number) => delivery(() => {}, { seq, phase: 'gone', receivedAt });
    expect(judge(senderGoneStops, phases(phase('gone', [...first, retryAt(2, 5010), retryAt(3, 35_010)], { afterGone })))).toEqual([
      { subject: 'after the 410', severity: 'error', message: 'delivery #2 (a retry of the same event) came 5 s after the 410' },
      { subject: 'after the 410', severity: 'error', message: 'delivery #3 (a retry of the same event) came 35 s after the 410' },
    ]);
    // A 410 exchange that never ended may not have reached the sender: what followed is not judged.
    expect(skipReason(senderGoneStops, phases(phase('gone', [{ ...first[0], endedAt: undefined }, retryAt(2, 5010)], { afterGone })))).toBe(
      "our answer to delivery #1 did not end, with a 0 ms stall of the certifier's event loop around it: too close to the sender's 30 s time-out to tell (use a larger --time-scale)",
    );
  });

  it('a phase that could not run says why; the skips say why', () => {
    expect(judge(senderGoneStops, phases(phase('gone', [], { skipped: 'could not raise the event: 503' })))).toEqual([{ subject: 'after the 410', severity: 'error', message: 'could not raise the event: 503' }]);
    expect(skipReason(senderGoneStops, phases(phase('gone', first)))).toBe('no second event could be raised after the 410 (no retry of the first came)');
  });

  it('a delivery after a 410 answered well in time is judged, even when a stall was measured', () => {
    const given = { ...phases(phase('gone', [{ ...first[0], stampDelayMs: 40 }, delivery(() => {}, { seq: 2, phase: 'gone', receivedAt: 60 })], { afterGone })) };
    expect(view(senderGoneStops, given)).toEqual(['delivery #2 (a retry of the same event) came 50 ms after the 410']);
  });
});
