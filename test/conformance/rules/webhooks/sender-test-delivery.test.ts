import { describe, expect, it } from 'vitest';
import { senderTestDelivery } from '../../../../conformance/rules/webhooks/sender-test-delivery.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { judge } from '../../../../conformance/rules/run.js';
import { skipReason, view, type View } from '../view.js';
import { body, delivery, phase, phases } from './fixtures.js';

const test = (isTest: unknown) => delivery(body((b) => (b.is_test = isTest)), { phase: 'test' });

const cases: Array<[string, { given: SenderObservations; want: View }]> = [
  ['a test delivery with is_test true', { given: phases(phase('test', [test(true)])), want: [] }],
  ['a test delivery with is_test false', { given: phases(phase('test', [test(false)])), want: ['is_test is false, expected true'] }],
  ['a requested test that never came', { given: phases(phase('test', [])), want: ['no test delivery arrived'] }],
  ['no test requested (skipped)', { given: phases(), want: 'skipped' }],
];

describe('sender-test-delivery', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderTestDelivery, given)).toEqual(want);
  });
});

describe('sender-test-delivery findings', () => {
  it('an error on the test delivery when is_test is not true, and on the phase when none came', () => {
    expect(judge(senderTestDelivery, phases(phase('test', [test('true')])))).toEqual([{ subject: 'delivery #1 (test, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'is_test is "true", expected true' }]);
    expect(view(senderTestDelivery, phases(phase('test', [delivery(body((b) => delete b.is_test), { phase: 'test' })])))).toEqual(['is_test is undefined, expected true']);
    expect(judge(senderTestDelivery, phases(phase('test', [], { skipped: 'the Admin API answered 404' })))).toEqual([{ subject: 'test delivery', severity: 'error', message: 'the Admin API answered 404' }]);
    expect(skipReason(senderTestDelivery, phases())).toBe('no test delivery requested (needs --admin-url)');
  });

  it('judges the first delivery of the phase', () => {
    expect(view(senderTestDelivery, phases(phase('test', [test(true), test(false)])))).toEqual([]);
  });
});
