import { describe, expect, it } from 'vitest';
import { senderCustomHeaders } from '../../../../conformance/rules/webhooks/sender-custom-headers.js';
import { skipReason, view, type View } from '../view.js';
import { judge } from '../../../../conformance/rules/run.js';
import { defectTable, delivery, sender } from './fixtures.js';

// Every one-change delivery of the fixtures: this rule names its own defects and no other.
const cases = defectTable<View>('sender-custom-headers', {
  'custom header missing': ['custom header X-Tenant is missing'],
}, []);

describe('sender-custom-headers', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(senderCustomHeaders, given)).toEqual(want);
  });

  it('is skipped when no delivery arrived', () => {
    expect(view(senderCustomHeaders, sender([]))).toBe('skipped');
    expect(view(senderCustomHeaders, sender([delivery()]))).toEqual([]);
  });

  it('reports a custom header value that differs without the value', () => {
    const judgement = judge(senderCustomHeaders, sender([delivery()], { customHeaders: { 'X-Tenant': 'secret-value' } }));
    expect(view(senderCustomHeaders, sender([delivery()], { customHeaders: { 'X-Tenant': 'secret-value' } }))).toEqual(['custom header X-Tenant does not carry the registered value']);
    expect(JSON.stringify(judgement)).not.toContain('secret-value');
    expect(JSON.stringify(judgement)).not.toContain('t-1');
  });

  it('is skipped when no custom header was registered', () => {
    expect(view(senderCustomHeaders, sender([delivery()], { customHeaders: {} }))).toBe('skipped');
  });
});

describe('sender-custom-headers findings', () => {
  it('every registered header on every delivery: missing, doubled or different, each an error on its delivery', () => {
    const doubled = delivery((d) => (d.headers['x-tenant'] = ['t-1', 't-1']), { seq: 2, phase: 'retry' });
    const given = sender([delivery(), doubled], { customHeaders: { 'X-Tenant': 't-1', 'X-Other': 'o' } });
    expect(judge(senderCustomHeaders, given)).toEqual([
      { subject: 'delivery #1 (delivered, order.created, dlv_01JPKZ9E8JEFCEGA0DBQKGKQBF)', severity: 'error', message: 'custom header X-Other is missing' },
      { subject: 'delivery #2 (retry, order.created, dlv_attempt_2)', severity: 'error', message: 'custom header X-Tenant does not carry the registered value' },
      { subject: 'delivery #2 (retry, order.created, dlv_attempt_2)', severity: 'error', message: 'custom header X-Other is missing' },
    ]);
  });

  it('says why it is skipped', () => {
    expect(skipReason(senderCustomHeaders, sender([delivery()], { customHeaders: {} }))).toBe('no custom header registered (use --admin-url, or --expect-header in port mode)');
  });
});
