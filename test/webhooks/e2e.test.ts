// Real servers on loopback, one per adapter, receiving signed deliveries over HTTP (undici), and raw TCP
// for the oversize cases, where the client deliberately never sends the whole body: a 413 that arrives
// proves the server answered before reading (let alone buffering) it all.
import { connect } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { createServer } from 'node:http';
import { toExpressMiddleware } from '../../src/webhooks/adapters/express.js';
import { listen } from '../../examples/receivers/run.js';
import { ADAPTERS, startAdapterApp, startReceiverApp, type AdapterKind, type ReceiverState, type RunningApp } from './apps/index.js';
import { createDemoReceiver } from './apps/receiver.js';
import { buildDelivery, retryOf, SECRET, type Delivery } from '../../conformance/vectors/webhook-fixtures.js';

const MAX = 64 * 1024;

async function deliver(url: string, d: Pick<Delivery, 'raw' | 'headers'>, method = 'POST') {
  const res = await request(url, { method: method as 'POST', headers: d.headers, body: method === 'GET' ? undefined : d.raw });
  const text = await res.body.text();
  const contentType = String(res.headers['content-type']);
  // Only the kit's own answers are JSON; a framework's error page (Express's 413 after express.raw) is not.
  return { status: res.statusCode, body: contentType.includes('json') ? JSON.parse(text) : text, contentType };
}

interface RawResult {
  status: number;
  head: string;
}

/** Sends `head` and `body` over TCP and resolves with the response status line, without sending more. */
function rawExchange(url: string, head: string, body: Buffer): Promise<RawResult> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      fn();
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end !== -1) done(() => resolve({ status: Number(received.slice(9, 12)), head: received.slice(0, end) }));
    });
    // The server may reset the connection after answering, since it left the body unread.
    socket.on('error', (error) => done(() => reject(error)));
    socket.on('close', () => done(() => reject(new Error(`connection closed before a response; got ${JSON.stringify(received)}`))));
    socket.write(head);
    socket.write(body);
  });
}

function requestHead(url: string, d: Delivery, extra: string): string {
  const { host, pathname } = new URL(url);
  const lines = [`POST ${pathname} HTTP/1.1`, `Host: ${host}`, ...Object.entries(d.headers).map(([k, v]) => `${k}: ${v}`), extra];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

describe.each(ADAPTERS)('receiver app: %s', (kind: AdapterKind) => {
  let app: RunningApp;
  let state: ReceiverState;

  beforeAll(async () => {
    ({ app, state } = await startReceiverApp(kind, { secrets: [SECRET], maxBodyBytes: MAX }));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('handles a signed delivery once and acknowledges its retries and replays without re-running', async () => {
    const d = buildDelivery();
    const first = await deliver(app.url, d);
    expect(first).toMatchObject({ status: 200, body: { ok: true, status: 'handled', event_id: d.body.event_id } });
    expect(first.contentType).toContain('application/json');
    const retry = await deliver(app.url, retryOf(d));
    const replay = await deliver(app.url, d); // the very same bytes again
    expect(retry).toMatchObject({ status: 200, body: { status: 'duplicate' } });
    expect(replay).toMatchObject({ status: 200, body: { status: 'duplicate' } });
    expect(state.calls.filter((c) => c.eventId === d.body.event_id)).toHaveLength(1);
  });

  it('handles concurrent duplicates once', async () => {
    const d = buildDelivery();
    const results = await Promise.all([d, retryOf(d), retryOf(d), retryOf(d)].map((x) => deliver(app.url, x)));
    const statuses = results.map((r) => r.status);
    // One attempt handles it; the others are either acknowledged duplicates or told to retry (409).
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(state.calls.filter((c) => c.eventId === d.body.event_id)).toHaveLength(1);
  });

  it('answers 500 when the application fails, and processes the retry', async () => {
    const d = buildDelivery();
    state.failOnce.add(d.body.event_id);
    expect(await deliver(app.url, d)).toMatchObject({ status: 500, body: { reason: 'handler-error' } });
    expect(await deliver(app.url, retryOf(d))).toMatchObject({ status: 200, body: { status: 'handled' } });
    expect(state.calls.filter((c) => c.eventId === d.body.event_id)).toHaveLength(2);
  });

  it('skips an out-of-order older update of the same order', async () => {
    const orderNumber = `ORD-E2E-${kind}`;
    const setOrder = (status: string) => (b: { payload: { properties: Record<string, unknown> } }) => {
      b.payload.properties.order_number = orderNumber;
      b.payload.properties.status = status;
    };
    const newer = buildDelivery({ event: 'order.updated', eventTime: '2025-03-14T05:02:41.118Z', mutate: setOrder('confirmed') });
    const older = buildDelivery({ event: 'order.updated', eventTime: '2025-03-14T05:01:00.000Z', mutate: setOrder('draft') });
    expect((await deliver(app.url, newer)).status).toBe(200);
    expect((await deliver(app.url, older)).status).toBe(200); // acknowledged: retrying a stale update is pointless
    const key = `${newer.body.payload.store_id}:${orderNumber}`;
    expect(state.orders.get(key)).toMatchObject({ status: 'confirmed', eventId: newer.body.event_id });
    expect(state.stale).toContainEqual({ eventId: older.body.event_id, latest: '2025-03-14T05:02:41.118Z' });
  });

  it('routes test deliveries to onTest only', async () => {
    const t = buildDelivery({ isTest: true });
    expect(await deliver(app.url, t)).toMatchObject({ status: 200, body: { status: 'test' } });
    expect(state.tests).toContain(t.body.event_id);
    expect(state.calls.some((c) => c.eventId === t.body.event_id)).toBe(false);
  });

  it('answers 410 only when the application unsubscribes', async () => {
    const d = buildDelivery();
    state.unsubscribeOn.add(d.body.event_id);
    expect(await deliver(app.url, d)).toMatchObject({ status: 410, body: { reason: 'unsubscribed' } });
  });

  it.each([
    ['bad signature', (d: Delivery) => ({ raw: d.raw, headers: { ...d.headers, 'x-svc-signature': `sha256=${'0'.repeat(64)}` } }), 401, 'mismatch'],
    ['missing signature', (d: Delivery) => ({ raw: d.raw, headers: { ...d.headers, 'x-svc-signature': '' } }), 401, 'missing'],
    ['upper-case hex', (d: Delivery) => ({ raw: d.raw, headers: { ...d.headers, 'x-svc-signature': d.headers['x-svc-signature'].toUpperCase().replace('SHA256', 'sha256') } }), 401, 'malformed'],
    ['re-indented body', (d: Delivery) => ({ raw: Buffer.from(JSON.stringify(d.body, null, 2)), headers: d.headers }), 401, 'mismatch'],
    ['forged event id header', (d: Delivery) => ({ raw: d.raw, headers: { ...d.headers, 'x-svc-event-id': 'evt_forged' } }), 400, 'header-mismatch'],
    ['schema violation', () => buildDelivery({ mutate: (b) => delete (b as Record<string, unknown>).is_test }), 400, 'schema'],
  ] as const)('refuses a delivery with %s', async (_name, make, status, reason) => {
    const before = state.calls.length;
    expect(await deliver(app.url, make(buildDelivery()))).toMatchObject({ status, body: { ok: false, reason } });
    expect(state.calls.length).toBe(before);
  });

  it('answers 405 to GET', async () => {
    const res = await request(app.url, { method: 'GET' });
    await res.body.text();
    expect(res.statusCode).toBe(kind.startsWith('express') ? 404 : 405); // Express routes POST only; 404 is Express's own
  });

  it('answers 413 for a complete body over the limit', async () => {
    const d = buildDelivery();
    const big = Buffer.alloc(MAX + 1, 0x20);
    const res = await deliver(app.url, { raw: big, headers: d.headers });
    expect(res.status).toBe(413);
    // With express.raw() in front, body-parser answers the 413 itself (HTML, after draining the body).
    if (kind !== 'express-raw') expect(res.body).toMatchObject({ ok: false, reason: 'too-large' });
  });

  // Streamed limits are the kit's own reader's; behind express.raw(), body-parser reads the body first, so these two
  // are not declared for that mount (not skipped: they do not apply to it).
  const streamed = (kind === 'express-raw' ? () => undefined : it) as typeof it;
  streamed('answers 413 from Content-Length before the body is sent', async () => {
    // 1 GiB declared, 16 KiB sent: the answer can only come from the declared length.
    const res = await rawExchange(app.url, requestHead(app.url, buildDelivery(), `Content-Length: ${1024 ** 3}`), Buffer.alloc(16 * 1024, 0x20));
    expect(res.status).toBe(413);
  });

  streamed('answers 413 while a chunked body streams past the limit, before it ends', async () => {
    // Twice the limit in chunks and no terminating chunk: the body never ends, so only the cap can answer.
    const chunk = Buffer.alloc(8 * 1024, 0x20);
    const chunks = Array.from({ length: (2 * MAX) / chunk.length }, () => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
    const res = await rawExchange(app.url, requestHead(app.url, buildDelivery(), 'Transfer-Encoding: chunked'), Buffer.concat(chunks));
    expect(res.status).toBe(413);
  });
});

describe('Express misconfiguration', () => {
  let app: RunningApp;
  beforeAll(async () => {
    const { handler } = createDemoReceiver({ secrets: [SECRET] });
    // The classic mistake: express.json() on every route, the webhook route included.
    const misconfigured = express();
    misconfigured.use(express.json());
    misconfigured.post('/webhooks', toExpressMiddleware(handler));
    app = await listen(createServer(misconfigured), 0);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses a body already parsed by express.json() with 401 not-raw-body and the fix, never a 500', async () => {
    const res = await deliver(app.url, buildDelivery());
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ ok: false, reason: 'not-raw-body' });
    expect(res.body.message).toContain('express.raw');
  });
});

describe('Fastify encapsulation', () => {
  it('keeps JSON parsing for the rest of the app', async () => {
    const { handler } = createDemoReceiver({ secrets: [SECRET] });
    const app = await startAdapterApp('fastify', handler);
    try {
      const echo = app.url.replace(/\/webhooks$/, '/echo');
      const res = await request(echo, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      expect(await res.body.json()).toEqual({ parsed: { a: 1 } });
    } finally {
      await app.close();
    }
  });
});
