// Certifying deliberately faulty servers fails, and the report names the rule and the operation.
// Each server is the mock behind a transforming proxy with exactly one defect.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/mock/server.js';
import { certify } from '../../conformance/rest/certify.js';
import type { RestCertificate } from '../../conformance/report/certificate.js';
import { errorBody, startMock, TEST_API_KEY, transformingProxy, type Transform } from './helpers.js';

let mock: MockServer;
let tmp: string;
beforeAll(async () => {
  mock = await startMock();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'certify-faulty-'));
});
afterAll(async () => {
  await mock?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const is = (req: { method: string }, inner: string, method: string, path: string) => req.method === method && inner === path;

/** A valid bearer token of the mock, for the server that does not enforce auth. */
async function mockToken(): Promise<string> {
  const reply = await request(`${mock.url}/api/v1/demo-store/storefront/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': TEST_API_KEY } });
  return ((await reply.body.json()) as any).content.access_token;
}

const cases: Array<[string, { transform: () => Promise<Transform> | Transform; want: { rule: string; operationId: string } }]> = [
  [
    'a number field served as a string',
    {
      transform: () => ({
        response(res, req, inner) {
          if (is(req, inner, 'GET', '/catalog/products') && res.status === 200) {
            const pricing = (res.body as any).content.products[0].pricing;
            pricing.selling_price = String(pricing.selling_price);
          }
        },
      }),
      want: { rule: 'response-schema', operationId: 'listProducts' },
    },
  ],
  [
    'a required field missing',
    {
      transform: () => ({
        response(res, req, inner) {
          if (req.method === 'GET' && /^\/catalog\/products\/[^/]+\/variants\/[^/]+$/.test(inner) && res.status === 200) delete (res.body as any).content.variant.hsn_code;
        },
      }),
      want: { rule: 'response-schema', operationId: 'getVariant' },
    },
  ],
  [
    'success: true on an error',
    {
      transform: () => ({
        response(res) {
          if (res.status >= 400 && res.body && typeof res.body === 'object') (res.body as any).success = true;
        },
      }),
      want: { rule: 'envelope', operationId: 'listProducts' },
    },
  ],
  [
    'auth not enforced',
    {
      transform: async () => {
        const token = await mockToken();
        return {
          request(req) {
            if (!req.headers['authorization'] && !req.headers['x-api-key']) {
              const key = /\/auth\/anonymous$|\/pos\/auth\/login\/phone$/.test(req.url.pathname);
              if (key) req.headers['x-api-key'] = TEST_API_KEY;
              else req.headers['authorization'] = `Bearer ${token}`;
            }
          },
        };
      },
      want: { rule: 'auth-enforced', operationId: 'listCountries' },
    },
  ],
  [
    'page 0 accepted',
    {
      transform: () => ({
        request(req) {
          if (req.url.searchParams.get('page') === '0') req.url.searchParams.set('page', '1');
        },
      }),
      want: { rule: 'invalid-input-rejected', operationId: 'listProducts' },
    },
  ],
  [
    'wrong content type',
    {
      transform: () => ({
        response(res, req, inner) {
          if (is(req, inner, 'GET', '/common/countries')) res.headers['content-type'] = 'text/html; charset=utf-8';
        },
      }),
      want: { rule: 'content-type-json', operationId: 'listCountries' },
    },
  ],
  [
    'a 500 on one operation',
    {
      transform: () => ({
        response(res, req, inner) {
          if (req.method === 'GET' && /^\/pos\/carts\/[^/]+$/.test(inner) && res.status === 200) {
            res.status = 500;
            res.body = errorBody('internal_error', 'Cart service unavailable.');
          }
        },
      }),
      want: { rule: 'status-documented', operationId: 'getPosCart' },
    },
  ],
  [
    'broken pagination',
    {
      transform: () => ({
        response(res, req, inner) {
          if (is(req, inner, 'GET', '/orders') && res.status === 200) {
            const p = (res.body as any).content.pagination;
            p.total_pages = p.total_records + 1;
          }
        },
      }),
      want: { rule: 'pagination', operationId: 'listOrders' },
    },
  ],
];

describe('certifying a faulty server fails and names the rule and the operation', () => {
  it.each(cases)('%s', async (name, { transform, want }) => {
    const proxy = await transformingProxy(mock.url, await transform());
    try {
      const reportDir = path.join(tmp, name.replace(/\W+/g, '-'));
      const { certificate } = await certify({ baseUrl: proxy.url, apiKey: TEST_API_KEY, reportDir });
      expect(certificate.verdict).toBe('not-certified');
      const hits = certificate.exchanges.filter((e) => e.operationId === want.operationId && e.findings.some((f) => f.rule === want.rule && f.severity === 'error'));
      expect(hits.length, `no ${want.rule} failure on ${want.operationId}`).toBeGreaterThan(0);
      // The written certificate says the same, and the operation's verdict is fail.
      const written: RestCertificate = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8'));
      expect(written.verdict).toBe('not-certified');
      expect(written.operations.find((o) => o.operationId === want.operationId)?.verdict).toBe('fail');
      expect(written.rules.find((r) => r.id === want.rule)?.errors).toBeGreaterThan(0);
      const junit = readFileSync(path.join(reportDir, 'junit.xml'), 'utf8');
      expect(junit).toContain(`classname="${want.operationId}"`);
      expect(junit).toContain(`type="${want.rule}"`);
    } finally {
      await proxy.close();
    }
  });
});
