import { describe, expect, it } from 'vitest';
import { senderMethodPost } from '../../../../conformance/rules/webhooks/sender-method-post.js';
import { judge } from '../../../../conformance/rules/run.js';
import { view, type View } from '../view.js';
import { defectTable, delivery, sender } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-method-post', {
  'GET instead of POST': ['method is GET, expected POST'],
}, []);

describe('sender-method-post', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderMethodPost, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderMethodPost, sender([]))).toBe('skipped');
    expect(view(senderMethodPost, sender([delivery()]))).toEqual([]);
  });
});

describe('sender-method-post findings', () => {
  it('an error on the delivery that used another method', () => {
    expect(judge(senderMethodPost, sender([delivery((d) => (d.method = 'PUT'))]))).toEqual([{ subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'method is PUT, expected POST' }]);
  });
});
