import { describe, expect, it } from 'vitest';
import { senderEnvelopeSchema } from '../../../../conformance/rules/webhooks/sender-envelope-schema.js';
import { view, type View } from '../view.js';
import { defectTable, delivery, sender } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-envelope-schema', {
  'is_test a string (re-signed)': ['/is_test: must be boolean (got string "false")'],
}, []);

describe('sender-envelope-schema', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderEnvelopeSchema, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderEnvelopeSchema, sender([]))).toBe('skipped');
    expect(view(senderEnvelopeSchema, sender([delivery()]))).toEqual([]);
  });
});
