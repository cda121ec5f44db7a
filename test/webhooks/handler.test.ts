// The handler core in process: dispatch, de-duplication, failure and retry, test deliveries, and the
// status policy (500 only for a failing application handler, 410 only on explicit unsubscribe()).
import { describe, expect, it } from 'vitest';
import { createWebhookHandler, unsubscribe, type DeliveryContext, type WebhookHandlerOptions } from '../../src/webhooks/handler.js';

type Ev = { event: string; event_id: string };
import type { DedupeStore } from '../../src/webhooks/dedupe.js';
import { buildDelivery, PREVIOUS_SECRET, retryOf, SECRET, type Delivery } from '../../conformance/vectors/webhook-fixtures.js';


function make(options: Partial<WebhookHandlerOptions> = {}) {
  return createWebhookHandler({ secrets: [SECRET], ...options });
}

async function post(handler: ReturnType<typeof make>, d: Delivery) {
  const reply = await handler.handle({ rawBody: d.raw, headers: d.headers, method: 'POST' });
  return { status: reply.status, body: JSON.parse(reply.body), reply };
}

describe('createWebhookHandler', () => {
  it('dispatches by event name with the parsed event and its context', async () => {
    const seen: unknown[] = [];
    const handler = make({ on: { 'order.created': (e: Ev, ctx: DeliveryContext) => void seen.push([e.event, e.event_id, ctx]) } as never });
    const d = buildDelivery();
    const { status, body } = await post(handler, d);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, status: 'handled', event_id: d.body.event_id });
    expect(seen).toEqual([['order.created', d.body.event_id, { eventId: d.body.event_id, deliveryId: d.body.delivery_id, secretIndex: 0 }]]);
  });

  it('acknowledges a retry of a handled event without running the handler again', async () => {
    let runs = 0;
    const handler = make({ on: { 'order.created': () => void runs++ } as never });
    const first = buildDelivery();
    expect((await post(handler, first)).status).toBe(200);
    const again = await post(handler, retryOf(first));
    expect(again).toMatchObject({ status: 200, body: { ok: true, status: 'duplicate' } });
    expect(runs).toBe(1);
  });

  it('answers 500 when the handler throws, releases the claim, and processes the retry', async () => {
    let runs = 0;
    const errors: unknown[] = [];
    const handler = make({
      on: { 'order.created': () => { runs++; if (runs === 1) throw new Error('database unavailable'); } } as never,
      onError: (error, info) => errors.push([String(error), info.stage]),
    });
    const first = buildDelivery();
    const failed = await post(handler, first);
    expect(failed).toMatchObject({ status: 500, body: { ok: false, reason: 'handler-error' } });
    expect(failed.reply.body).not.toContain('database unavailable'); // internals stay in onError, not in the answer
    expect((await post(handler, retryOf(first))).body.status).toBe('handled');
    expect((await post(handler, retryOf(first))).body.status).toBe('duplicate');
    expect(runs).toBe(2);
    expect(errors).toEqual([['Error: database unavailable', 'handler']]);
  });

  it('answers 409 (retry later) while another delivery of the same event is still running', async () => {
    let finish!: () => void;
    const handler = make({ on: { 'order.created': () => new Promise<void>((resolve) => (finish = resolve)) } as never });
    const first = buildDelivery();
    const pending = post(handler, first);
    await new Promise((r) => setImmediate(r));
    expect(await post(handler, retryOf(first))).toMatchObject({ status: 409, body: { reason: 'in-flight' } });
    finish();
    expect((await pending).status).toBe(200);
    expect((await post(handler, retryOf(first))).body.status).toBe('duplicate');
  });

  it('sends test deliveries to onTest, never to business handlers', async () => {
    const business: string[] = [];
    const tests: string[] = [];
    const handler = make({ on: { 'order.created': (e: Ev) => void business.push(e.event_id) } as never, onTest: (e) => void tests.push((e as { event_id: string }).event_id) });
    const t = buildDelivery({ isTest: true });
    expect(await post(handler, t)).toMatchObject({ status: 200, body: { status: 'test' } });
    expect(tests).toEqual([t.body.event_id]);
    expect(business).toEqual([]);
    const withoutOnTest = make({ on: { 'order.created': (e: Ev) => void business.push(e.event_id) } as never });
    expect(await post(withoutOnTest, buildDelivery({ isTest: true }))).toMatchObject({ status: 200, body: { status: 'test' } });
    expect(business).toEqual([]);
  });

  it('acknowledges events without a handler (200, never 4XX), or hands them to onUnhandled', async () => {
    expect(await post(make({ on: {} }), buildDelivery({ event: 'order.updated' }))).toMatchObject({ status: 200, body: { status: 'ignored' } });
    const unhandled: string[] = [];
    const handler = make({ on: {}, onUnhandled: (e) => void unhandled.push((e as { event: string }).event) });
    expect((await post(handler, buildDelivery({ event: 'order.updated' }))).body.status).toBe('handled');
    expect(unhandled).toEqual(['order.updated']);
  });

  it('answers 410 only when the handler returns unsubscribe()', async () => {
    const returns: unknown[] = [undefined, null, false, 410, 'gone', { status: 410 }, { gone: true }];
    for (const value of returns) {
      const handler = make({ on: { 'order.created': () => value as never } as never });
      expect((await post(handler, buildDelivery())).status).toBe(200);
    }
    const handler = make({ on: { 'order.created': () => unsubscribe() } as never });
    expect(await post(handler, buildDelivery())).toMatchObject({ status: 410, body: { reason: 'unsubscribed' } });
  });

  it('never answers 410 or 500 for anything the sender did', async () => {
    const handler = make({ on: { 'order.created': () => undefined } as never });
    const d = buildDelivery();
    const bad = [
      { rawBody: d.raw, headers: {} },
      { rawBody: Buffer.from('garbage'), headers: d.headers },
      { rawBody: { parsed: true }, headers: d.headers },
      { rawBody: undefined, headers: undefined },
      { rawBody: d.raw, headers: { ...d.headers, 'x-svc-signature': ['a', 'b'] } },
    ];
    for (const input of bad) {
      const reply = await handler.handle(input as never);
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
      expect(reply.status).not.toBe(410);
    }
    expect((await handler.handle({ rawBody: d.raw, headers: d.headers, method: 'GET' })).status).toBe(405);
  });

  it('reports every refusal to onReject without the secret', async () => {
    const rejections: string[] = [];
    const handler = make({ onReject: (r) => rejections.push(JSON.stringify(r)) });
    const d = buildDelivery({ secret: 'whsec_wrong' });
    expect((await post(handler, d)).status).toBe(401);
    expect(rejections).toHaveLength(1);
    expect(rejections[0]).toContain('mismatch');
    expect(rejections[0]).not.toContain(SECRET);
  });

  it('reads secrets from a function per delivery (rotation without restart)', async () => {
    let secrets = [SECRET];
    const handler = make({ secrets: () => secrets });
    const rotated = buildDelivery({ secret: PREVIOUS_SECRET });
    expect((await post(handler, rotated)).status).toBe(401);
    secrets = [SECRET, PREVIOUS_SECRET];
    expect((await post(handler, retryOf(rotated, PREVIOUS_SECRET))).status).toBe(200);
    const failing = make({ secrets: () => Promise.reject(new Error('vault down')) });
    expect((await post(failing, buildDelivery())).status).toBe(503);
  });

  it('answers 503 when the dedupe store fails, without running the handler', async () => {
    let runs = 0;
    const broken: DedupeStore = { claim: () => Promise.reject(new Error('redis down')), complete: () => undefined, release: () => undefined };
    const handler = make({ dedupe: broken, on: { 'order.created': () => void runs++ } as never });
    expect(await post(handler, buildDelivery())).toMatchObject({ status: 503, body: { reason: 'dedupe-unavailable' } });
    expect(runs).toBe(0);
  });

  it('runs the handler on every delivery when dedupe is off', async () => {
    let runs = 0;
    const handler = make({ dedupe: false, on: { 'order.created': () => void runs++ } as never });
    const d = buildDelivery();
    await post(handler, d);
    await post(handler, retryOf(d));
    expect(runs).toBe(2);
  });

  it('refuses to start without a secret or with a bad size limit', () => {
    expect(() => createWebhookHandler({ secrets: [] })).toThrow(/secret/);
    expect(() => createWebhookHandler({ secrets: '' })).toThrow(/secret/);
    expect(() => createWebhookHandler({ secrets: [SECRET], maxBodyBytes: 0 })).toThrow(/maxBodyBytes/);
  });

  it('issue 38: maxBodyBytes from 1 to the largest safe integer is taken; below, fractions and beyond are refused', () => {
    for (const ok of [1, 2, Number.MAX_SAFE_INTEGER]) expect(createWebhookHandler({ secrets: [SECRET], maxBodyBytes: ok }).maxBodyBytes).toBe(ok);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => createWebhookHandler({ secrets: [SECRET], maxBodyBytes: bad }), String(bad)).toThrow(new TypeError('createWebhookHandler: maxBodyBytes must be a positive integer'));
    }
  });

  it('issue 38: a body of exactly maxBodyBytes is handled; one byte over is 413', async () => {
    const d = buildDelivery();
    expect((await post(make({ maxBodyBytes: d.raw.length, on: {} }), d)).status).toBe(200);
    const over = await post(make({ maxBodyBytes: d.raw.length - 1, on: {} }), d);
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ ok: false, reason: 'too-large' });
  });
});
