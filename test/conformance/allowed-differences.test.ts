// A correct implementation that differs from the mock everywhere the contract leaves room is certified,
// with no finding at all, not even advice. It is the mock behind one proxy that rewrites every answer at
// once; each difference counts how often it applied, so a difference that never happened cannot pass
// unnoticed. (The faulty servers are in faulty-servers.test.ts.)
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { certify } from '../../conformance/rest/certify.js';
import { startMock, TEST_API_KEY, transformingProxy, type Running } from './helpers.js';

/** Rows per page this server serves at most (the contract states no maximum; section 8). */
const MAX_PAGE_SIZE = 1;

const applied = { pageCapped: 0, extraFields: 0, reordered: 0, rekeyedMaps: 0, gzipped: 0, plain: 0 };

/** Every object gets its keys in reverse order; free-form maps (associated_options, metadata) hold other keys. */
function rewrite(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v));
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, rewrite(v, k)] as [string, unknown]);
  // Another store's data: its option keys and metadata keys are its own (the free objects of section 2.7,
  // 2.9, 2.10; a saved card's `metadata` has named fields, section 2.14, and is left alone).
  if (key === 'associated_options' || (key === 'metadata' && !('origin_customer_id' in (value as object)))) {
    applied.rekeyedMaps++;
    return Object.fromEntries(entries.map(([k, v]) => [`store_${k}`, v]).reverse());
  }
  // Fields the contract does not name (section 2.1: "not shown" beyond the listed fields): records, the
  // envelope and the pagination block carry some more.
  if ('id' in (value as object) || 'success' in (value as object) || 'total_records' in (value as object)) {
    entries.push(['x_served_by', 'edge-7'], ['links_self', { href: 'https://api.example.com/self' }]);
    applied.extraFields++;
  }
  applied.reordered++;
  return Object.fromEntries(entries.reverse());
}

let mock: MockServer;
let proxy: Running;
beforeAll(async () => {
  mock = await startMock();
  const askedGzip = new WeakSet<object>();
  proxy = await transformingProxy(mock.url, {
    request(req) {
      // A smaller maximum page size: every page holds at most MAX_PAGE_SIZE rows, pagination.limit says so.
      if (Number(req.url.searchParams.get('limit')) > MAX_PAGE_SIZE) {
        req.url.searchParams.set('limit', String(MAX_PAGE_SIZE));
        applied.pageCapped++;
      }
      if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) askedGzip.add(req);
      delete req.headers['accept-encoding'];
    },
    response(res) {
      res.body = rewrite(res.body);
      // Extra response headers and a charset parameter, spelled another way.
      res.headers['content-type'] = 'application/json;charset=UTF-8';
      res.headers['x-request-id'] = 'req_7f3a';
      res.headers['cache-control'] = 'no-store';
      res.headers['x-ratelimit-remaining'] = '4999';
      res.headers['vary'] = 'Accept-Encoding';
    },
    serialize(res, req) {
      // Indented, with surrounding whitespace; gzip when the client asked for it.
      const text = Buffer.from(`\n  ${JSON.stringify(res.body, null, 3)}\r\n`);
      if (!askedGzip.has(req)) {
        applied.plain++;
        return text;
      }
      applied.gzipped++;
      res.headers['content-encoding'] = 'gzip';
      return gzipSync(text);
    },
  });
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

describe('a correct server that differs from the mock wherever the contract leaves room', () => {
  it('is certified with no finding (smaller page size, extra headers and fields, key order, whitespace, gzip, charset)', async () => {
    const { certificate } = await certify({ baseUrl: proxy.url, apiKey: TEST_API_KEY });
    const findings = certificate.exchanges.flatMap((e) => e.findings.map((f) => `${e.id} ${f.rule} ${f.severity}: ${f.message}`));
    expect(findings).toEqual([]);
    expect(certificate.verdict).toBe('certified');
    expect(certificate.rules.find((r) => r.id === 'pagination')?.status).toBe('passed');
    expect(certificate.rules.find((r) => r.id === 'structural-drift')?.status).toBe('passed');
    // Every difference was really served, and the certifier asked for compression on every request.
    expect(applied.pageCapped).toBeGreaterThan(5);
    expect(applied.extraFields).toBeGreaterThan(100);
    expect(applied.rekeyedMaps).toBeGreaterThan(5);
    expect(applied.gzipped).toBe(certificate.exchanges.filter((e) => e.status !== undefined).length);
    expect(applied.plain).toBe(0);
  });
});
