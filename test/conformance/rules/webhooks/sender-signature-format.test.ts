import { describe, expect, it } from 'vitest';
import { senderSignatureFormat } from '../../../../conformance/rules/webhooks/sender-signature-format.js';
import { judge } from '../../../../conformance/rules/run.js';
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

describe('sender-signature-format findings', () => {
  const signed = (...values: string[]) => sender([delivery((d) => (values.length ? (d.headers['x-svc-signature'] = values) : delete d.headers['x-svc-signature']))]);
  it.each([
    ['a missing header', [], 'X-SVC-Signature header is missing'],
    ['another prefix', ['sha1=abc'], 'X-SVC-Signature "sha1=abc" does not match ^sha256=[0-9a-f]{64}$'],
    ['bare hex, cut after 16 characters', ['0123456789abcdef0'], 'X-SVC-Signature "0123456789abcdef…" does not match ^sha256=[0-9a-f]{64}$'],
    ['exactly 16 characters, not cut', ['0123456789abcdef'], 'X-SVC-Signature "0123456789abcdef" does not match ^sha256=[0-9a-f]{64}$'],
    ['63 hex digits', [`sha256=${'a'.repeat(63)}`], 'X-SVC-Signature "sha256=aaaaaaaaa…" does not match ^sha256=[0-9a-f]{64}$'],
    ['65 hex digits', [`sha256=${'a'.repeat(65)}`], 'X-SVC-Signature "sha256=aaaaaaaaa…" does not match ^sha256=[0-9a-f]{64}$'],
    ['upper-case hex of another length', [`sha256=${'A'.repeat(63)}`], 'X-SVC-Signature "sha256=AAAAAAAAA…" does not match ^sha256=[0-9a-f]{64}$'],
    ['an upper-case prefix', [`SHA256=${'a'.repeat(64)}`], 'X-SVC-Signature "SHA256=aaaaaaaaa…" does not match ^sha256=[0-9a-f]{64}$'],
    ['text before the prefix', [`xsha256=${'a'.repeat(64)}`], 'X-SVC-Signature "xsha256=aaaaaaaa…" does not match ^sha256=[0-9a-f]{64}$'],
  ] as const)('%s is an error on the delivery', (_, values, message) => {
    expect(judge(senderSignatureFormat, signed(...values))).toEqual([{ subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message }]);
  });
});
