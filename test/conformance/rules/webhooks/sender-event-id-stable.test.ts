import { describe, expect, it } from 'vitest';
import { senderEventIdStable } from '../../../../conformance/rules/webhooks/sender-event-id-stable.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { attempts, body, delivery, phase, phases } from './fixtures.js';

const retry = attempts('retry', [[0, 1], [5000, 5001]]);
const timeout = attempts('timeout', [[0, 30000], [35000, 35001]], { phase: 'timeout' });
const newEventId = delivery(body((b) => (b.event_id = b.payload.event_id = 'evt_new')), { seq: 2, phase: 'retry' });

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['retries keep the event_id', { given: phases(phase('retry', retry), phase('timeout', timeout)), want: [] }],
  [
    'a retry with a new event_id',
    { given: phases(phase('retry', [retry[0], newEventId]), phase('timeout', timeout)), want: ['attempt 2 (delivery #2) has event_id "evt_new", the first attempt had "evt_01JP71SB1203SRX72ERNJHY54J"'] },
  ],
  ['only one phase with retries (the other not observed: skipped)', { given: phases(phase('retry', retry)), want: 'skipped' }],
];

describe('sender-event-id-stable', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderEventIdStable, given)).toEqual(want);
  });
});

describe('sender-event-id-stable findings', () => {
  it('a retry whose payload.event_id differs, in either phase, is an error on that phase', () => {
    const innerChanged = (seq: number, name: 'retry' | 'timeout') => delivery(body((b) => (b.payload.event_id = 'evt_inner')), { seq, phase: name });
    const given = phases(phase('retry', [retry[0], retry[1], innerChanged(3, 'retry')]), phase('timeout', [timeout[0], newEventId]));
    expect(judge(senderEventIdStable, given)).toEqual([
      { subject: 'retry phase', severity: 'error', message: 'attempt 3 (delivery #3) has payload.event_id "evt_inner", expected "evt_01JP71SB1203SRX72ERNJHY54J"' },
      { subject: 'timeout phase', severity: 'error', message: 'attempt 2 (delivery #2) has event_id "evt_new", the first attempt had "evt_01JP71SB1203SRX72ERNJHY54J"' },
    ]);
  });

  it('says which phase could not be compared, and why', () => {
    expect(skipReason(senderEventIdStable, phases(phase('retry', retry), phase('timeout', [timeout[0]])))).toBe('timeout phase: fewer than two attempts to compare');
    expect(skipReason(senderEventIdStable, phases(phase('retry', [], { skipped: 'could not raise' }), phase('timeout', timeout)))).toBe('retry phase: could not raise');
  });
});
