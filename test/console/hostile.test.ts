// Found by attacking the console from outside (a hostile tester's pass): what the request log showed a page
// that it should not have (a webhook's custom header values, a credential under a header name of the
// caller's own, credential keys in a body cut at the bound or nested deeper than the masking walked).
// The number of pages streaming the log had no bound: 2,000 paused streams held ~80 MB more per burst of
// requests (each holds up to 256 entries and a socket buffer). One workbench, real HTTP on loopback, a real SSE page open so that bodies are kept.
import http from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbench, sandboxApiKey, type Workbench } from '../../workbench/index.js';
import type { FeedDetail, FeedSummary } from '../../workbench/http/request-feed.js';
import { hangGuard } from '../helpers/hang-guard.js';

let wb: Workbench;
let page: http.ClientRequest;

beforeAll(async () => {
  // At most 3 pages stream the log at once here (32 by default), so the cap is reached in a few connections.
  wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, console: { stream: { maxStreams: 3 } } });
  // A console page watching: the log keeps bodies only then.
  await new Promise<void>((resolve, reject) => {
    page = http.get(`${wb.url}/__simulator/console/requests/stream`, (res) => {
      res.resume();
      resolve();
    });
    page.on('error', reject);
  });
}, hangGuard(60_000));

afterAll(async () => {
  page?.destroy();
  await wb?.close();
});

async function send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await request(`${wb.url}${path}`, { method: method as 'GET', headers, body });
  return { status: res.statusCode, text: await res.body.text() };
}

/** The detail of the last logged request to `path` (the log records it as its answer finishes). */
async function detailOf(method: string, path: string): Promise<FeedDetail> {
  const list = JSON.parse((await send('GET', '/__simulator/console/requests')).text).requests as FeedSummary[];
  const entry = list.filter((e) => e.method === method && e.path.startsWith(path)).at(-1);
  expect(entry, `${method} ${path} logged`).toBeDefined();
  return JSON.parse((await send('GET', `/__simulator/console/requests/${entry!.id}`)).text) as FeedDetail;
}

const admin = { authorization: 'Bearer console-hostile-admin', 'content-type': 'application/json' };

describe("the request log shows no credential a caller sent", () => {
  it("a webhook's custom header values (the Admin API itself answers only their names)", async () => {
    const body = JSON.stringify({ url: 'http://127.0.0.1:9/hostile-a', events: ['order.created'], custom_headers: { 'X-Receiver-Key': 'rk_live_receiver_credential', 'X-Tenant': 'tenant-credential-42' } });
    expect((await send('POST', '/api/v1/demo-store/admin/webhooks', admin, body)).status).toBe(201);
    const detail = await detailOf('POST', '/api/v1/demo-store/admin/webhooks');
    expect(detail.request.body).toContain('X-Receiver-Key');
    expect(detail.request.body).not.toContain('rk_live_receiver_credential');
    expect(detail.request.body).not.toContain('tenant-credential-42');
  });

  it('a credential under a header name of its own, known by its scheme', async () => {
    await send('GET', '/api/v1/demo-store/storefront/catalog/products?limit=1', { 'x-partner-auth': 'Basic cGFydG5lcjpodW50ZXIy', 'x-upstream': 'Bearer upstream-credential-77' });
    const detail = await detailOf('GET', '/api/v1/demo-store/storefront/catalog/products');
    expect(detail.request.headers['x-partner-auth']).toBe('Basic [masked]');
    expect(detail.request.headers['x-upstream']).toBe('Bearer [masked]');
    expect(JSON.stringify(detail)).not.toContain('cGFydG5lcjpodW50ZXIy');
  });

  it('credential keys in a JSON body over the bound (cut, so not parsed)', async () => {
    const body = JSON.stringify({ password: 'pw-cut-body-credential', custom_headers: { 'X-Key': 'cut-body-header-credential' }, url: 'http://127.0.0.1:9/hostile-b', events: ['order.created'], description: 'x'.repeat(20_000) });
    await send('POST', '/api/v1/demo-store/admin/webhooks', admin, body);
    const detail = await detailOf('POST', '/api/v1/demo-store/admin/webhooks');
    expect(detail.request.truncated).toBe(true);
    expect(detail.request.body).not.toContain('pw-cut-body-credential');
    expect(detail.request.body).not.toContain('cut-body-header-credential');
  });

  it('credential keys in a malformed JSON body (the 400 a page opens to see why)', async () => {
    expect((await send('POST', '/api/v1/demo-store/admin/webhooks', admin, '{"url": "http://127.0.0.1:9/hostile-d", "password": "pw-malformed-body-credential", ')).status).toBe(400);
    const detail = await detailOf('POST', '/api/v1/demo-store/admin/webhooks');
    expect(detail.request.body).toContain('hostile-d');
    expect(detail.request.body).not.toContain('pw-malformed-body-credential');
  });

  it('a credential key nested deeper than the masking walks', async () => {
    let nested: unknown = { secret: 'deep-nested-credential' };
    for (let i = 0; i < 60; i++) nested = { a: nested };
    await send('POST', '/api/v1/demo-store/admin/webhooks', admin, JSON.stringify({ url: 'http://127.0.0.1:9/hostile-c', events: ['order.created'], description: nested }));
    const detail = await detailOf('POST', '/api/v1/demo-store/admin/webhooks');
    expect(detail.request.body).not.toBeNull();
    expect(detail.request.body).not.toContain('deep-nested-credential');
  });
});

describe('issue 37 item 30: a store key under a header name of the caller\'s own', () => {
  it('item 30: masked by its value: a key-shaped value (the sandbox store key sk_...), a known key of the workbench, under any name; other headers stay readable', async () => {
    const key = sandboxApiKey('demo-store');
    await send('GET', '/api/v1/demo-store/storefront/catalog/products?limit=1', { 'x-store': key, 'x-forwarded-key-copy': `v=${key}`, 'x-store-key': 'k-by-name', 'x-request-id': 'req-123', 'idempotency-key': 'idem-456' });
    const detail = await detailOf('GET', '/api/v1/demo-store/storefront/catalog/products');
    expect(detail.request.headers).toMatchObject({ 'x-store': '[masked]', 'x-forwarded-key-copy': '[masked]', 'x-store-key': '[masked]', 'x-request-id': 'req-123', 'idempotency-key': 'idem-456' });
    expect(JSON.stringify(detail)).not.toContain(key);
    // A fixed key (--api-key) has no shape of its own: the workbench knows it, and masks it under any name.
    const fixed = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, apiKeys: ['plain-fixed-key-of-item-30'], webhooks: false, sandbox: false });
    try {
      const sent = await request(`${fixed.url}/api/v1/demo-store/storefront/common/countries`, { headers: { 'x-tenant': 'plain-fixed-key-of-item-30', 'x-note': 'nothing secret' } });
      await sent.body.text();
      const list = (await (await request(`${fixed.url}/__simulator/console/requests`)).body.json()) as { requests: FeedSummary[] };
      const id = list.requests.find((e) => e.operation === 'listCountries')!.id;
      const shown = (await (await request(`${fixed.url}/__simulator/console/requests/${id}`)).body.json()) as FeedDetail;
      expect(shown.request.headers).toMatchObject({ 'x-tenant': '[masked]', 'x-note': 'nothing secret' });
      expect(JSON.stringify(shown)).not.toContain('plain-fixed-key-of-item-30');
    } finally {
      await fixed.close();
    }
  });
});

describe("a 4XX's envelope in the log's summary", () => {
  it('has its details redacted like its message (they echo the value sent)', async () => {
    const reply = await send('GET', '/api/v1/demo-store/admin/webhooks?page=whsec_echoedInDetails0123456789', admin);
    expect(reply.status).toBe(400);
    const list = JSON.parse((await send('GET', '/__simulator/console/requests')).text).requests as FeedSummary[];
    const entry = list.filter((e) => e.path.startsWith('/api/v1/demo-store/admin/webhooks?page=')).at(-1)!;
    expect(entry.error?.details.length).toBeGreaterThan(0);
    expect(JSON.stringify(entry)).not.toContain('echoedInDetails');
  });
});

describe('the live stream', () => {
  /** Opens a stream; resolves with its status and the open request (destroy it to close the page). */
  const open = () =>
    new Promise<{ status: number; body: Promise<string>; req: http.ClientRequest }>((resolve, reject) => {
      const req = http.get(`${wb.url}/__simulator/console/requests/stream`, (res) => {
        let text = '';
        const body = new Promise<string>((done) => {
          res.on('data', (d) => (text += d));
          res.on('end', () => done(text));
        });
        resolve({ status: res.statusCode!, body, req });
      });
      req.on('error', reject);
    });

  it('refuses one page past the bound with the envelope, and takes one again once a page closes', async () => {
    // The file's own page is one of the three.
    const a = await open();
    const b = await open();
    expect([a.status, b.status]).toEqual([200, 200]);
    const refused = await open();
    expect(refused.status).toBe(409);
    expect(JSON.parse(await refused.body)).toMatchObject({ success: false, message: expect.stringContaining('at most 3'), content: { error: { code: 'conflict', details: [] } } });
    // The rest of the workbench still answers.
    expect((await send('GET', '/__simulator/console')).status).toBe(200);
    b.req.destroy();
    let again: Awaited<ReturnType<typeof open>> | undefined;
    for (let i = 0; i < 50 && again?.status !== 200; i++) {
      again?.req.destroy();
      await new Promise((r) => setImmediate(r));
      again = await open();
    }
    expect(again!.status).toBe(200);
    a.req.destroy();
    again!.req.destroy();
  });
});
