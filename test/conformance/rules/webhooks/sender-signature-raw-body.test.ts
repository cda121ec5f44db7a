import { describe, expect, it } from 'vitest';
import { senderSignatureRawBody } from '../../../../conformance/rules/webhooks/sender-signature-raw-body.js';
import { view, type View } from '../view.js';
import { defectTable, delivery, sender } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-signature-raw-body', {
  'signed over compact JSON, sent indented': ['signature is over a re-serialisation of the body (compact JSON.stringify), not over the 4795 bytes sent'],
  'signed with another secret': ['signature does not match the 3085 bytes received with the subscription secret'],
}, []);

describe('sender-signature-raw-body', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderSignatureRawBody, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderSignatureRawBody, sender([]))).toBe('skipped');
    expect(view(senderSignatureRawBody, sender([delivery()]))).toEqual([]);
  });
});
