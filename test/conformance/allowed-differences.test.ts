// Servers that differ from the recording in ways the contract allows are certified: each is the mock
// behind a transforming proxy with exactly one such difference. (The faulty servers are in
// faulty-servers.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/mock/server.js';
import { certify } from '../../conformance/rest/certify.js';
import { startMock, TEST_API_KEY, transformingProxy } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.close();
});

const findingsOf = (c: Awaited<ReturnType<typeof certify>>['certificate'], rule: string) =>
  c.exchanges.flatMap((e) => e.findings.filter((f) => f.rule === rule).map((f) => `${e.id} ${f.severity}: ${f.message}`));

describe('certifying a server with a difference the contract allows', () => {
  it('a server capping the page size (limit is the rows per page it used) is certified', async () => {
    // Every list page is served with at most one row, whatever limit was asked for.
    const proxy = await transformingProxy(mock.url, {
      request(req) {
        if (Number(req.url.searchParams.get('limit')) > 1) req.url.searchParams.set('limit', '1');
      },
    });
    try {
      const { certificate } = await certify({ baseUrl: proxy.url, apiKey: TEST_API_KEY });
      expect(findingsOf(certificate, 'pagination')).toEqual([]);
      expect(certificate.rules.find((r) => r.id === 'pagination')?.status).toBe('passed');
      expect(certificate.verdict).toBe('certified');
    } finally {
      await proxy.close();
    }
  });

  it('a server whose free-form maps hold other keys (metadata, associated_options) shows no drift', async () => {
    // Another store's data: option keys and metadata keys are its own.
    const rekey = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(rekey);
      if (!value || typeof value !== 'object') return;
      const o = value as Record<string, unknown>;
      if (o.associated_options && typeof o.associated_options === 'object') {
        o.associated_options = Object.fromEntries(Object.entries(o.associated_options).map(([k, v]) => [`store_${k}`, v]));
      }
      for (const v of Object.values(o)) rekey(v);
    };
    const proxy = await transformingProxy(mock.url, {
      response(res, req, inner) {
        if (res.status !== 200 || req.method !== 'GET') return;
        rekey(res.body);
        const variant = (res.body as any)?.content?.variant;
        if (/^\/catalog\/products\/[^/]+\/variants\/[^/]+$/.test(inner) && variant?.metadata) variant.metadata = { warehouse_note: 'restocked' };
      },
    });
    try {
      const { certificate } = await certify({ baseUrl: proxy.url, apiKey: TEST_API_KEY });
      expect(findingsOf(certificate, 'structural-drift')).toEqual([]);
      expect(certificate.verdict).toBe('certified');
    } finally {
      await proxy.close();
    }
  });
});
