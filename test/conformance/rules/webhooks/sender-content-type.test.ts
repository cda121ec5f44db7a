import { describe, expect, it } from 'vitest';
import { senderContentType } from '../../../../conformance/rules/webhooks/sender-content-type.js';
import { view, type View } from '../view.js';
import { defectTable, delivery, sender } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-content-type', {
  // The exact header value is designed (register WH-004): advice.
  'text/plain': ['warning: Content-Type is "text/plain", expected application/json'],
}, []);

describe('sender-content-type', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderContentType, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderContentType, sender([]))).toBe('skipped');
    expect(view(senderContentType, sender([delivery()]))).toEqual([]);
  });
});
