// The console's server parts without a browser, on one workbench: the local-caller guard on the page, its
// files and its calls; the request log's masking, bounds and envelopes; the live stream's bound for a page
// that stops reading (entries dropped and counted, never queued without limit); the signature verdict
// computed with the subscription's secret, which no console answer contains.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeOf } from '../../workbench/engine/exchange.js';
import { createWorkbench, type Workbench } from '../../workbench/index.js';
import type { FeedDetail, FeedSummary } from '../../workbench/http/request-feed.js';
import { hangGuard } from '../helpers/hang-guard.js';

let wb: Workbench;
let receiver: http.Server;
let receiverUrl: string;
const signatures: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    signatures.push(String(req.headers['x-svc-signature']));
    req.resume().on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true });
}, hangGuard(60_000));

afterAll(async () => {
  await wb?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await request(`${wb.url}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

const consoleGet = async (path: string) => (await send('GET', `/__simulator/console${path}`)).json;
/** The log's entries after `after`, newest last. */
const logged = async (after = 0): Promise<FeedSummary[]> => ((await consoleGet('/requests')).requests as FeedSummary[]).filter((e) => e.id > after);
const lastId = async () => (await logged()).at(-1)?.id ?? 0;

describe('the guard of the control routes covers the console', () => {
  const paths = ['/console', '/console/console.js', '/console/console.css', '/__simulator/console/requests', '/__simulator/console/requests/stream', '/__simulator/console/stores/demo-store/attempts'];

  it.each(paths)('%s: a foreign Origin, a cross-site load and a rebound Host get the 403 envelope', async (path) => {
    const callers: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }, { host: 'attacker.example:4010' }];
    for (const headers of callers) {
      const reply = await send('GET', path, headers);
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.json).toMatchObject({ success: false, content: { error: { code: 'forbidden' } } });
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('serves the page, its script and stylesheet to this machine, with a CSP and no framing', async () => {
    const page = await send('GET', '/console', { 'sec-fetch-site': 'none' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<script type="module" src="/console/console.js">');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    const script = await send('GET', '/console/console.js', { 'sec-fetch-site': 'same-origin' });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.text.length).toBeGreaterThan(10_000);
    const again = await send('GET', '/console/console.js', { 'if-none-match': String(script.headers.etag) });
    expect(again.status).toBe(304);
    expect((await send('GET', '/console/console.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await send('POST', '/console')).status).toBe(405);
    expect((await send('GET', '/console/nothing.js')).json).toMatchObject({ success: false, content: { error: { code: 'not_found' } } });
  });
});

describe('issue 37 item 18: the favicon', () => {
  it('item 18: the page carries its icon inline (no request for /favicon.ico), and /favicon.ico answers 204, not 404', async () => {
    const page = await send('GET', '/console');
    expect(page.text).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,%3Csvg/);
    // The CSP lets the page show it.
    expect(page.headers['content-security-policy']).toContain("img-src 'self' data:");
    const before = await lastId();
    for (const method of ['GET', 'HEAD']) {
      const icon = await send(method, '/favicon.ico');
      expect(icon.status, method).toBe(204);
      expect(icon.text).toBe('');
    }
    // Logged as the workbench's own, which the console hides by default (item 19), never as a 404.
    const entries = (await logged(before)).filter((e) => e.path === '/favicon.ico');
    expect(entries.map((e) => [e.status, e.own])).toEqual([[204, true], [204, true]]);
    expect((await send('POST', '/favicon.ico')).status).toBe(404);
  });
});

describe('the request log', () => {
  it('records a storefront request with its operation, store and the 4XX envelope; not the console own calls', async () => {
    const before = await lastId();
    await send('GET', '/api/v1/demo-store/storefront/catalog/products?limit=2');
    const entries = await logged(before);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ method: 'GET', path: '/api/v1/demo-store/storefront/catalog/products?limit=2', status: 401, api: 'storefront', store: 'demo-store', operation: 'listProducts' });
    expect(entries[0].error).toMatchObject({ code: 'unauthorized', details: [expect.objectContaining({ name: 'Authorization' })] });
  });

  it('keeps bodies while a page watches; masks credentials in headers, bodies and the URL, and bounds bodies with a marker', async () => {
    // Without a page open, a success keeps no body (an error keeps its envelope: the test above).
    let before = await lastId();
    await send('GET', '/__simulator/stores/demo-store/keys');
    const unwatched = (await consoleGet(`/requests/${before + 1}`)) as FeedDetail;
    expect(unwatched).toMatchObject({ bodies_kept: false, response: { body: null } });
    const page = http.get(`${wb.url}/__simulator/console/requests/stream`, (res) => res.resume());
    await expect.poll(() => wb.console!.streams().length).toBe(1);
    before = await lastId();
    const created = await send('POST', '/api/v1/mask-store/admin/webhooks?access_token=abcdefgh12345678', { authorization: 'Bearer admin-secret-token-1234', 'content-type': 'application/json', cookie: 'session=s3cr3t' }, JSON.stringify({ url: receiverUrl, events: ['order.created'] }));
    expect(created.status).toBe(201);
    const secret = created.json.content.secret as string;
    const key = (await send('GET', '/__simulator/stores/demo-store/keys')).json.content.api_key as string;
    const signIn = await send('POST', '/api/v1/demo-store/storefront/auth/anonymous', { 'x-api-key': key });
    const token = signIn.json.content.access_token as string;
    // A body larger than the log keeps (8 KB): refused by the schema, kept truncated.
    await send('POST', '/api/v1/mask-store/admin/webhooks', { authorization: 'Bearer x', 'content-type': 'application/json' }, JSON.stringify({ url: receiverUrl, events: ['order.created'], description: 'd'.repeat(20_000) }));

    const entries = await logged(before);
    expect(entries.map((e) => e.operation)).toEqual(['createWebhook', 'GET /__simulator/stores/{store_id}/keys', 'createAnonymousUser', 'createWebhook']);
    const details = await Promise.all(entries.map(async (e) => (await consoleGet(`/requests/${e.id}`)) as FeedDetail));
    const all = JSON.stringify(details) + JSON.stringify(entries);
    for (const value of [secret, key, token, 'admin-secret-token-1234', 's3cr3t', 'abcdefgh12345678']) expect(all).not.toContain(value);
    const [webhook, keys, anonymous, large] = details;
    expect(webhook.path).toBe('/api/v1/mask-store/admin/webhooks?access_token=[redacted]');
    expect(webhook.request.headers).toMatchObject({ authorization: 'Bearer [masked]', cookie: '[masked]' });
    expect(JSON.parse(webhook.response.body!).content.secret).toBe('[masked]');
    expect(JSON.parse(webhook.request.body!)).toEqual({ url: receiverUrl, events: ['order.created'] });
    expect(JSON.parse(keys.response.body!).content.api_key).toBe('[masked]');
    expect(anonymous.request.headers['x-api-key']).toBe('[masked]');
    expect(JSON.parse(anonymous.response.body!).content.access_token).toBe('[masked]');
    expect(large.status).toBe(400);
    expect(large.request.truncated).toBe(true);
    expect(large.request.body!.endsWith('…[truncated]')).toBe(true);
    expect(large.request.body!.length).toBeLessThanOrEqual(8 * 1024 + 20);
    page.destroy();
    await expect.poll(() => wb.console!.streams().length).toBe(0);
  });

  it('answers 404 for an entry no longer held, 400 for a bad filter', async () => {
    expect((await send('GET', '/__simulator/console/requests/999999')).status).toBe(404);
    expect((await send('GET', '/__simulator/console/stores/demo-store/attempts?colour=red')).status).toBe(400);
    expect((await send('GET', '/__simulator/console/stores/demo-store/browse/planets')).status).toBe(404);
    expect((await send('GET', '/__simulator/console/stores/demo-store/browse/products?limit=500')).status).toBe(400);
  });
});

describe('the live stream', () => {
  /** A raw client of the stream: reads what arrives, or stops reading (paused) like a page that cannot keep up. */
  function openStream(headers = '') {
    const { port } = new URL(wb.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.write(`GET /__simulator/console/requests/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}\r\n`);
    return { socket, text: () => text };
  }

  it('sends the entries after Last-Event-ID, then each new request as it finishes', async () => {
    const last = await lastId();
    const client = openStream(`Last-Event-ID: ${last}\r\n`);
    await expect.poll(() => wb.console!.streams().length).toBe(1);
    await send('GET', '/api/v1/demo-store/storefront/common/countries');
    await expect.poll(() => client.text()).toMatch(/event: request\ndata: .*"operation":"listCountries"/);
    expect(client.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*content-type: text\/event-stream/i);
    // Only what came after Last-Event-ID: the countries call is the first entry sent.
    const ids = [...client.text().matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids[0]).toBe(last + 1);
    client.socket.destroy();
    await expect.poll(() => wb.console!.streams().length).toBe(0);
  });

  it('a page that stops reading gets entries dropped and counted, never an unbounded queue', async () => {
    const client = openStream(`Last-Event-ID: ${await lastId()}\r\n`);
    await expect.poll(() => wb.console!.streams().length).toBe(1);
    client.socket.pause();
    // 30,000 requests' entries (about 15 MB of events), recorded as the pipeline records them.
    const feed = wb.console!.feed;
    const request = new Request(`http://127.0.0.1/api/v1/demo-store/storefront/catalog/products?page=${'9'.repeat(200)}`);
    for (let i = 0; i < 30_000; i++) {
      feed.begin(exchangeOf(request))!(200, 1);
      if (i % 5000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const [stats] = wb.console!.streams();
    expect(stats.queued).toBeLessThanOrEqual(256);
    expect(stats.dropped).toBeGreaterThan(0);
    // What the stream holds for the connection stays near its high-water mark (it stops taking entries there).
    expect(stats.buffered).toBeLessThan(64 * 1024);
    // Reading again: the queue goes out, then the count of what was dropped (in one or more events).
    client.socket.resume();
    const reported = () => [...client.text().matchAll(/event: dropped\ndata: \{"count":(\d+)\}/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    await expect.poll(reported, { timeout: hangGuard(20_000) }).toBe(stats.dropped);
    const sent = [...client.text().matchAll(/^event: request$/gm)].length;
    expect(sent + stats.dropped).toBe(30_000);
    client.socket.destroy();
    await expect.poll(() => wb.console!.streams().length).toBe(0);
  }, hangGuard(60_000));
});

describe('the signature verdict', () => {
  it("verifies each attempt's signature with the subscription's secret, and says when it was rotated since; the secret never leaves", async () => {
    const store = 'verdict-store';
    const admin = { authorization: 'Bearer any', 'content-type': 'application/json' };
    const created = await send('POST', `/api/v1/${store}/admin/webhooks`, admin, JSON.stringify({ url: receiverUrl, events: ['order.created'] }));
    const { webhook: { id }, secret } = created.json.content as { webhook: { id: string }; secret: string };
    const raised = await send('POST', `/__simulator/stores/${store}/events`, { 'content-type': 'application/json' }, JSON.stringify({ event: 'order.created' }));
    expect(raised.status).toBe(202);
    await expect.poll(async () => (await consoleGet(`/stores/${store}/attempts`)).deliveries[0]?.status, { timeout: hangGuard(10_000) }).toBe('succeeded');
    const first = (await consoleGet(`/stores/${store}/attempts`)).deliveries[0];
    expect(first.signature).toMatchObject({ verdict: 'verified', header: signatures.at(-1) });

    const rotated = await send('POST', `/api/v1/${store}/admin/webhooks/${id}/rotate-secret`, admin);
    expect(rotated.status, rotated.text).toBe(200);
    const after = await send('GET', `/__simulator/console/stores/${store}/attempts`);
    expect(after.json.deliveries[0].signature.verdict).toBe('mismatch');
    const subs = await send('GET', `/__simulator/console/stores/${store}/webhooks`);
    expect(subs.json.content.webhooks[0].id).toBe(id);
    for (const text of [after.text, subs.text, JSON.stringify(await logged())]) expect(text).not.toContain(secret);
  });
});
