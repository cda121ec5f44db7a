import { describe, expect, it } from 'vitest';
import { senderUserAgent } from '../../../../conformance/rules/webhooks/sender-user-agent.js';
import { judge } from '../../../../conformance/rules/run.js';
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

describe('sender-user-agent findings', () => {
  it('a missing, doubled or different User-Agent is an error on the delivery', () => {
    expect(judge(senderUserAgent, sender([delivery((d) => delete d.headers['user-agent'])]))).toEqual([{ subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'User-Agent header is missing' }]);
    expect(view(senderUserAgent, sender([delivery((d) => (d.headers['user-agent'] = ['Service-Webhooks/1.0', 'Service-Webhooks/1.0']))]))).toEqual(['User-Agent header is sent 2 times']);
    expect(view(senderUserAgent, sender([delivery((d) => (d.headers['user-agent'] = ['Service-Webhooks/1.1']))]))).toEqual(['User-Agent is "Service-Webhooks/1.1", expected "Service-Webhooks/1.0"']);
  });
});
