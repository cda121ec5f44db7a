import { describe, expect, it } from 'vitest';
import { senderTestDelivery } from '../../../../conformance/rules/webhooks/sender-test-delivery.js';
import type { SenderObservations } from '../../../../conformance/rules/observations/webhooks.js';
import { view, type View } from '../view.js';
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
