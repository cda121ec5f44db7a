import { describe, expect, it } from 'vitest';
import { senderUserAgent } from '../../../../conformance/rules/webhooks/sender-user-agent.js';
import { view, type View } from '../view.js';
import { defectTable, delivery, sender } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-user-agent', {
  'another User-Agent': ['User-Agent is "node", expected "Service-Webhooks/1.0"'],
}, []);

describe('sender-user-agent', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderUserAgent, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderUserAgent, sender([]))).toBe('skipped');
    expect(view(senderUserAgent, sender([delivery()]))).toEqual([]);
  });
});
