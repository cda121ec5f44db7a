import { describe, expect, it } from 'vitest';
import { senderIdentityHeaders } from '../../../../conformance/rules/webhooks/sender-identity-headers.js';
import { view, type View } from '../view.js';
import { defectTable, delivery, sender } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-identity-headers', {
  'X-SVC-Delivery-ID differs from the body': ['X-SVC-Delivery-ID is "dlv_other" but the body\'s delivery_id is "dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF"'],
}, []);

describe('sender-identity-headers', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderIdentityHeaders, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderIdentityHeaders, sender([]))).toBe('skipped');
    expect(view(senderIdentityHeaders, sender([delivery()]))).toEqual([]);
  });
});
