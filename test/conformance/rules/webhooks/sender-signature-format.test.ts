import { describe, expect, it } from 'vitest';
import { senderSignatureFormat } from '../../../../conformance/rules/webhooks/sender-signature-format.js';
import { view, type View } from '../view.js';
import { defectTable, delivery, sender } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-signature-format', {
  'upper-case hex digest': ['X-SVC-Signature "sha256=1D455151F…" does not match ^sha256=[0-9a-f]{64}$ (hex digits must be lowercase)'],
  'signature header twice': ['X-SVC-Signature header is sent 2 times'],
}, []);

describe('sender-signature-format', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderSignatureFormat, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderSignatureFormat, sender([]))).toBe('skipped');
    expect(view(senderSignatureFormat, sender([delivery()]))).toEqual([]);
  });
});
