// Issue 26's journey, as a test writer stages it through the back office (outside the contract) and reads
// it through the storefront (every answer valid against the spec): the store's clock is set; a cart is made
// with an expired coupon and an out-of-stock line; the clock moves past the cart's expiry (it reads as
// expired) and past a token's lifetime (401 with the envelope and RFC 6750's challenge); a receiver that
// fails is taken through the whole retry ladder by advancing the clock, each attempt sent at its due time,
// and its final 410 disables the subscription.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse } from '../../src/validators/index.js';
import { createBackOfficeClient, type BackOfficeClient, type Workbench } from '../../workbench/index.js';
import { deliveryRules } from '../../workbench/simulator/rules.js';
import { anonymous, call, http as send, startSandbox } from './helpers.js';

const STORE = 'time-journey';
const ADMIN = { authorization: 'Bearer journey-admin' };
let wb: Workbench;
let office: BackOfficeClient;

beforeAll(async () => {
  wb = await startSandbox({ webhooks: { timeoutMs: 2000 } });
  office = createBackOfficeClient({ baseUrl: wb.url, storeId: STORE });
});
afterAll(async () => {
  await wb?.close();
});

/** A receiver answering the statuses given in turn, keeping each body's envelope `timestamp` and attempt header. */
async function failingReceiver(statuses: number[]) {
  const seen: Array<{ timestamp: string; event: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const envelope = JSON.parse(body);
      seen.push({ timestamp: envelope.timestamp, event: envelope.event });
      res.writeHead(statuses[seen.length - 1] ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('a store staged in time', () => {
  it('sets the clock, stages a cart, expires it and a token, and plays a failing receiver through the retry ladder', async () => {
    // 1. The store's clock, frozen on a Monday morning.
    const set = await office.setClock({ now: '2027-03-01T09:00:00Z', frozen: true });
    expect(set).toMatchObject({ now: '2027-03-01T09:00:00.000Z', frozen: true, wall_clock: false });

    // 2. A failing receiver subscribed to cart events: 500, 500, 500, then 410 (maxAttempts is 4).
    expect(deliveryRules.maxAttempts).toBe(4);
    const receiver = await failingReceiver([500, 500, 500, deliveryRules.disableStatus]);
    try {
      const sub = await send(`${wb.url}/api/v1/${STORE}/admin/webhooks`, 'POST', { headers: ADMIN, body: { url: receiver.url, events: ['cart.created'] } });
      expect(sub.status).toBe(201);
      const webhookId: string = sub.json.content.webhook.id;

      // 3. A cart with an expired coupon and an out-of-stock line, expiring two hours from now on the store's clock.
      const world = await office.getWorld();
      const gone = world.products.several_variants[0];
      const kept = world.products.without_variant_options[0];
      await office.moveStock({ product_id: gone.id, variant_id: gone.variants[0], stock_quantity: 0 });
      const customer = world.customers[0];
      const written = await office.createCart({
        customer_id: customer.id,
        cart_items: [
          { product_id: gone.id, variant_id: gone.variants[0], quantity: 1 },
          { product_id: kept.id, quantity: 2 },
        ],
        coupon_code: 'FESTIVE300',
        expires_in_seconds: 7200,
      });
      expect(written.cart.expires_at).toBe('2027-03-01T11:00:00.000Z');
      expect(written.coupon).toMatchObject({ code: 'FESTIVE300', applied: false, reason: expect.stringMatching(/^The coupon expired on /) });

      // 4. Read through the storefront: valid, the line out of stock, the coupon not applied.
      const { auth } = await anonymous(wb, STORE);
      const cart = (await call(wb, 'getPosCart', 'GET', `/pos/carts/${written.cart.id}`, { headers: auth, store: STORE })).json.content.cart;
      expect(cart).toMatchObject({ active: true, coupon_code: null, is_coupon_applied: false });
      expect(cart.cart_items.map((i: { variant_id: string; stock_available: boolean }) => [i.variant_id, i.stock_available])).toEqual([
        [gone.variants[0], false],
        [kept.variants[0], true],
      ]);
      const coupons = (await call(wb, 'evaluateCartCoupons', 'GET', `/pos/carts/${written.cart.id}/evaluate-coupons`, { headers: auth, store: STORE })).json.content;
      expect(coupons.inapplicable_coupons.find((c: { id: string }) => c.id === written.coupon!.coupon_id)).toMatchObject({ reason: expect.stringMatching(/expired/) });

      // The frozen clock sent cart.created's first attempt at 09:00 and holds its retries back.
      await waitUntil(() => receiver.seen.length >= 1, 'the first attempt');
      expect(receiver.seen[0]).toMatchObject({ event: 'cart.created', timestamp: '2027-03-01T09:00:00.000Z' });

      // 5. Three hours later: the cart has expired; the ladder (5 s, 30 s, 5 min) played on the way, in order.
      const wallBefore = Date.now();
      const later = await office.setClock({ advance: 'PT3H' });
      // The advance jumps between due times and runs only while an attempt is on the wire: an attempt is
      // late by at most the wall time the advance took (measured around it, so load cannot make it red).
      const advanceTook = Date.now() - wallBefore;
      expect(later).toMatchObject({ now: '2027-03-01T12:00:00.000Z', attempts_due_on_the_way: 3 });
      const expired = (await call(wb, 'getPosCart', 'GET', `/pos/carts/${written.cart.id}`, { headers: auth, store: STORE })).json.content.cart;
      expect(expired).toMatchObject({ active: false, status: 'expired', expires_at: '2027-03-01T11:00:00.000Z' });

      const list = await send(`${wb.url}/api/v1/${STORE}/admin/webhooks/deliveries?webhook_id=${webhookId}`, 'GET', { headers: ADMIN });
      expect(validateResponse('admin', 'listWebhookDeliveries', list.status, list.json)).toEqual({ valid: true });
      const attempts = [...list.json.content.deliveries].sort((a, b) => a.attempt - b.attempt);
      expect(attempts.map((a) => [a.attempt, a.response_status])).toEqual([
        [1, 500],
        [2, 500],
        [3, 500],
        [4, 410],
      ]);
      const delays = deliveryRules.retryDelaysSeconds.map((s) => s * 1000);
      for (let i = 1; i < attempts.length; i++) {
        const due = Date.parse(attempts[i - 1].completed_at) + delays[i - 1];
        expect(Date.parse(attempts[i].sent_at), `attempt ${i + 1} sent at its due time`).toBeGreaterThanOrEqual(due);
        expect(Date.parse(attempts[i].scheduled_at), `attempt ${i + 1} scheduled at its due time`).toBe(due);
        expect(Date.parse(attempts[i].sent_at) - due, `attempt ${i + 1} late by more than the advance ran (${advanceTook} ms)`).toBeLessThanOrEqual(advanceTook);
        expect(Date.parse(receiver.seen[i].timestamp)).toBe(Date.parse(attempts[i].sent_at));
      }
      // The 410 disabled the subscription; nothing more is sent however far the clock moves.
      const hook = (await send(`${wb.url}/api/v1/${STORE}/admin/webhooks/${webhookId}`, 'GET', { headers: ADMIN })).json.content.webhook;
      expect(hook).toMatchObject({ status: 'disabled' });

      // 6. A day after it was issued, the token is refused with the contract's 401 and RFC 6750's challenge.
      const dayLater = await office.setClock({ advance: 'P1D' });
      expect(dayLater).toMatchObject({ now: '2027-03-02T12:00:00.000Z', attempts_due_on_the_way: 0 });
      const refused = await call(wb, 'getPosCart', 'GET', `/pos/carts/${written.cart.id}`, { headers: auth, store: STORE });
      expect(refused.status).toBe(401);
      expect(refused.json).toMatchObject({ success: false, content: { error: { code: 'unauthorized', details: [{ location: 'header', name: 'Authorization' }] } } });
      expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect(receiver.seen).toHaveLength(4);
    } finally {
      await receiver.close();
    }
    // Back on the wall clock.
    expect(await office.releaseClock()).toMatchObject({ wall_clock: true });
  });
});

async function waitUntil(ok: () => boolean, what: string): Promise<void> {
  const until = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
