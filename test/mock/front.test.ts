// The front around Prism: unknown paths, wrong methods, body limits, /docs, CORS, plug-in routes and
// the redacted request log.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { API_KEY, TOKEN, apiKey, bearer, call, json, loadContract, rawExchange, startMock, storefront, type Contract } from './helpers.js';

let server: MockServer;
let small: MockServer;
let noDocs: MockServer;
let contract: Contract;
let docsRoot: string;
const logLines: string[] = [];

beforeAll(async () => {
  contract = await loadContract();
  docsRoot = await mkdtemp(path.join(os.tmpdir(), 'mock-docs-'));
  await mkdir(path.join(docsRoot, 'guides'));
  await writeFile(path.join(docsRoot, 'index.html'), '<h1>Storefront docs</h1>');
  await writeFile(path.join(docsRoot, 'guides', 'start.html'), '<p>start</p>');
  await writeFile(path.join(path.dirname(docsRoot), `${path.basename(docsRoot)}-secret.txt`), 'SIBLING-FILE-CONTENT');
  [server, small, noDocs] = await Promise.all([
    startMock({
      docsRoot,
      logSink: (text) => logLines.push(...text.split('\n').filter(Boolean)),
      extensions: [
        {
          controlRoutes: [
            {
              method: 'POST',
              path: '/__simulator/{area}',
              summary: 'a plug-in route of this test',
              handle: ({ params }) => ({ status: 200, body: { hooked: `/__simulator/${params.area}`, method: 'POST' } }),
            },
          ],
        },
      ],
    }),
    startMock({ maxBodyBytes: 1024 }),
    startMock({ docsRoot: path.join(docsRoot, 'does-not-exist') }),
  ]);
});
afterAll(async () => {
  await Promise.all([server, small, noDocs].map((s) => s?.close()));
  await rm(docsRoot, { recursive: true, force: true });
  await rm(path.join(path.dirname(docsRoot), `${path.basename(docsRoot)}-secret.txt`), { force: true });
});

function expectEnvelope(reply: { json: any; headers: any }, code: string) {
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(reply.json).toMatchObject({ success: false, content: { error: { code } } });
  expect(typeof reply.json.message).toBe('string');
  // The envelope shape is the contract's, whatever route produced it.
  expect(contract.check('GET', '/pos/carts/{id}', 404, { ...reply.json, content: { error: { ...reply.json.content.error, code: 'not_found' } } })).toEqual([]);
}

describe('unknown paths', () => {
  it.each([
    ['/'],
    ['/catalog/products'],
    ['/api/v1/demo-store/storefront'],
    ['/api/v1/demo-store/storefront/nope'],
    ['/api/v1/demo-store/storefront/catalog/products/p1'],
    ['/api/v1/demo-store/unknown-api/catalog/products'],
    ['/api/v2/demo-store/storefront/catalog/products'],
    // (/favicon.ico answers 204, not 404: issue 37 item 18, test/console/server.test.ts)
    ['/favicon.png'],
  ])('%s gets the 404 envelope', async (p) => {
    const reply = await call(server.url, 'GET', p, { headers: bearer() });
    expect(reply.status).toBe(404);
    expectEnvelope(reply, 'not_found');
  });

  it('a known path with a wrong method gets 405 with Allow', async () => {
    const reply = await call(storefront(server), 'DELETE', '/catalog/products', { headers: bearer() });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET');
    expectEnvelope(reply, 'method_not_allowed');
  });

  it('a trailing slash is tolerated', async () => {
    const reply = await call(storefront(server), 'GET', '/common/countries/', { headers: bearer() });
    expect(reply.status).toBe(200);
  });

  it('invalid percent-encoding in a path parameter is a 400 envelope', async () => {
    const reply = await call(storefront(server), 'GET', '/pos/carts/%E0%A4%A', { headers: bearer() });
    expect(reply.status).toBe(400);
    expectEnvelope(reply, 'invalid_parameter');
  });
});

describe('body size limit', () => {
  it('a body over the default 1 MiB gets 413', async () => {
    const big = JSON.stringify({ address: { first_name: 'x'.repeat(1024 * 1024) } });
    const reply = await call(storefront(server), 'POST', '/customers', { headers: { ...bearer(), ...json }, body: big });
    expect(reply.status).toBe(413);
    expect(contract.check('POST', '/customers', 413, reply.json)).toEqual([]);
    expect(reply.json.content.error.code).toBe('payload_too_large');
  });

  it('a body just under the limit is read (and judged on its content)', async () => {
    const reply = await call(storefront(small), 'POST', '/customers', { headers: { ...bearer(), ...json }, body: JSON.stringify({ pad: 'x'.repeat(900) }) });
    expect(reply.status).toBe(400);
  });

  it.each([
    ['announced by Content-Length', false],
    ['streamed chunked without a length', true],
  ])('--max-body-bytes is enforced when %s', async (_n, chunked) => {
    const payload = JSON.stringify({ pad: 'x'.repeat(5000) });
    const head = [
      'POST /api/v1/s/storefront/shipping/fulfillment-options HTTP/1.1',
      'host: 127.0.0.1',
      `authorization: Bearer ${TOKEN}`,
      'content-type: application/json',
      chunked ? 'transfer-encoding: chunked' : `content-length: ${payload.length}`,
      '',
      '',
    ].join('\r\n');
    const body = chunked ? `${payload.length.toString(16)}\r\n${payload}\r\n0\r\n\r\n` : payload;
    const raw = await rawExchange(small.port, head + body);
    expect(raw).toMatch(/^HTTP\/1\.1 413 /);
    expect(raw).toContain('"payload_too_large"');
  });

  it('the server keeps answering after an oversized body', async () => {
    const reply = await call(storefront(small), 'GET', '/common/countries', { headers: bearer() });
    expect(reply.status).toBe(200);
  });
});

describe('/docs', () => {
  it('serves the built site', async () => {
    const reply = await call(server.url, 'GET', '/docs/');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/text\/html/);
    expect(reply.text).toContain('Storefront docs');
  });

  it('redirects /docs to /docs/', async () => {
    const reply = await call(server.url, 'GET', '/docs');
    expect(reply.status).toBe(301);
    expect(reply.headers.location).toBe('/docs/');
  });

  it('serves nested pages', async () => {
    const reply = await call(server.url, 'GET', '/docs/guides/start.html');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('<p>start</p>');
  });

  it.each([
    ['/docs/../package.json'],
    ['/docs/%2e%2e/package.json'],
    ['/docs/%2e%2e%2fpackage.json'],
    ['/docs/..%2f..%2fpackage.json'],
    ['/docs/guides/..%2f..%2f..%2fetc%2fpasswd'],
    ['/docs/%00index.html'],
    ['/docs/%zz'],
    ['/docs/nope.html'],
  ])('%s never escapes the site (404 envelope or a page inside it)', async (p) => {
    const reply = await rawExchange(server.port, `GET ${p} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
    expect(reply).not.toContain('"name": "storefront-contract"');
    expect(reply).not.toContain('root:');
    expect(reply).toMatch(/^HTTP\/1\.1 (404|200|301) /);
  });

  it.each([['..%2f'], ['%2e%2e%2f'], ['..%5c']])('a sibling of the site folder cannot be read via %s', async (dots) => {
    const reply = await rawExchange(server.port, `GET /docs/${dots}${path.basename(docsRoot)}-secret.txt HTTP/1.1\r\nhost: x\r\n\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 404 /);
    expect(reply).not.toContain('SIBLING-FILE-CONTENT');
  });

  it('without a built site, /docs says to run npm run docs', async () => {
    const reply = await call(noDocs.url, 'GET', '/docs/');
    expect(reply.status).toBe(404);
    expectEnvelope(reply, 'not_found');
    expect(reply.json.message).toContain('npm run docs');
  });
});

describe('CORS', () => {
  it('answers a preflight', async () => {
    const reply = await call(storefront(server), 'OPTIONS', '/catalog/products', {
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(reply.status).toBe(204);
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['access-control-allow-headers']).toBe('authorization');
  });

  it('marks answers as readable from any origin', async () => {
    const reply = await call(storefront(server), 'GET', '/common/countries', { headers: { ...bearer(), origin: 'http://localhost:3000' } });
    expect(reply.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('plug-in routes', () => {
  it('are tried before anything else', async () => {
    const reply = await call(server.url, 'POST', '/__simulator/deliveries');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ hooked: '/__simulator/deliveries', method: 'POST' });
  });
});

describe('request log', () => {
  it('has one line per request with method, path, status and time, and no secrets', async () => {
    logLines.length = 0;
    const otp = '482913';
    await call(storefront(server), 'POST', `/auth/anonymous?refresh_token=rt_secret_value&otp=${otp}&page=2`, { headers: apiKey() });
    await call(storefront(server), 'GET', '/catalog/products?access_token=tok_in_query', { headers: bearer() });
    await call(storefront(server), 'GET', '/common/countries', { headers: { authorization: 'Bearer' } });
    // The logger writes once an answer is finished (batched per turn): wait for the three lines, not a time.
    const storefrontLines = () => logLines.filter((l) => l.includes('/storefront/'));
    await expect.poll(() => storefrontLines().length).toBeGreaterThanOrEqual(3);
    const lines = storefrontLines();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^POST \/api\/v1\/demo-store\/storefront\/auth\/anonymous\?refresh_token=\[redacted\]&otp=\[redacted\]&page=2 200 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^GET .*access_token=\[redacted\] 200 /);
    expect(lines[2]).toMatch(/^GET \/api\/v1\/demo-store\/storefront\/common\/countries 401 /);
    const all = logLines.join('\n');
    for (const secret of [API_KEY, TOKEN, 'rt_secret_value', otp, 'tok_in_query']) expect(all).not.toContain(secret);
  });
});
