// Certifying the embedded mock passes, at concurrency 1 and 10, and --only narrows the judged set.
import { describe, expect, it } from 'vitest';
import { certify } from '../../conformance/rest/certify.js';
import { storefrontOperationList as operations } from '../../conformance/rest/load.js';

describe('certifying the mock', () => {
  it.each([1, 10])('passes at concurrency %i with every documented status exercised', async (concurrency) => {
    const { certificate } = await certify({ apiKey: 'sk_test_mock_key_123456', concurrency });
    const errors = certificate.exchanges.flatMap((e) => e.findings.filter((f) => f.severity === 'error').map((f) => `${e.id} ${f.rule}: ${f.message}`));
    expect(errors).toEqual([]);
    expect(certificate.verdict).toBe('certified');
    expect(certificate.target.embeddedMock).toBe(true);
    for (const op of operations) {
      for (const status of op.responses) {
        expect(certificate.coverage[op.operationId][status], `${op.operationId} ${status}`).toEqual({ recorded: true, exercised: true, passed: true });
      }
    }
  });

  it('--only judges the named operations and runs what they need', async () => {
    const { certificate } = await certify({ only: ['getVariant'] });
    const judged = certificate.exchanges.filter((e) => e.judged);
    expect(new Set(judged.map((e) => e.operationId))).toEqual(new Set(['getVariant']));
    // The variant needs the token and the product list: they ran, unjudged.
    expect(certificate.exchanges.some((e) => !e.judged && e.operationId === 'listProducts')).toBe(true);
    expect(Object.keys(certificate.coverage)).toEqual(['getVariant']);
    expect(certificate.verdict).toBe('certified');
  });
});
