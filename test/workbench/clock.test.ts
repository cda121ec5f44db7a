// The per-store virtual clock (workbench/clock/): the back office sets, freezes and advances a store's
// time; the sandbox dates its world from it, expires carts and tokens by it; the simulator sends the
// retries that fall due on the way at their due times, in order, and disables a subscription answered 410.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedSetting } from '../helpers/store-files.js';
import { validateResponse } from '../../src/validators/index.js';
import { deliveryRules } from '../../workbench/simulator/rules.js';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, backOffice, call, http as send, startSandbox, tempDir, waitFor } from '../sandbox/helpers.js';

const ADMIN = { authorization: 'Bearer clock-test-admin' };
const DAY = 86_400_000;

let wb: Workbench;
beforeAll(async () => {
  wb = await startSandbox({ webhooks: { timeoutMs: 2000 } });
});
afterAll(async () => {
  await wb?.close();
});

const clock = (store: string) => `${backOffice(wb, store)}/clock`;

describe('the seeded world is dated from the store clock', () => {
  it('carts expire in the days ahead and orders were placed in the weeks before', async () => {
    const world = await send(`${backOffice(wb, 'dated-store')}/world/carts`);
    const now = Date.now();
    expect(world.json.length).toBeGreaterThan(3);
    for (const cart of world.json) {
      const expires = Date.parse(cart.expires_at);
      expect(expires, cart.id).toBeGreaterThan(now - DAY);
      expect(expires, cart.id).toBeLessThan(now + 31 * DAY);
    }
    const orders = await send(`${backOffice(wb, 'dated-store')}/world/orders`);
    const placed = orders.json.map((o: { order_date: string }) => Date.parse(o.order_date));
    expect(Math.max(...placed)).toBeLessThan(now);
    expect(Math.max(...placed)).toBeGreaterThan(now - 30 * DAY);
  });

  it('a reset dates the world from the store clock of that day', async () => {
    const store = 'reset-dated';
    expect((await send(clock(store), 'POST', { body: { now: '2031-03-10T12:00:00Z' } })).status).toBe(200);
    await send(`${backOffice(wb, store)}/reset`, 'POST');
    const carts = await send(`${backOffice(wb, store)}/world/carts`);
    for (const cart of carts.json) expect(cart.expires_at.slice(0, 7), cart.id).toMatch(/^2031-0[34]$/);
  });
});

describe('the clock routes', () => {
  it('shows the wall clock until set; sets, freezes, advances and releases', async () => {
    const store = 'clock-routes';
    const first = await send(clock(store));
    expect(first.status).toBe(200);
    expect(first.headers['x-simulator']).toBe('outside-contract');
    expect(first.json.content).toMatchObject({ store_id: store, wall_clock: true, frozen: false, advancing: false });

    const set = await send(clock(store), 'POST', { body: { now: '2027-01-01T00:00:00Z', frozen: true } });
    expect(set.status).toBe(200);
    expect(set.json.content).toMatchObject({ now: '2027-01-01T00:00:00.000Z', frozen: true, wall_clock: false });

    const advanced = await send(clock(store), 'POST', { body: { advance: 'P1DT2H30M' } });
    expect(advanced.json.content).toMatchObject({ now: '2027-01-02T02:30:00.000Z', frozen: true, attempts_due_on_the_way: 0 });

    const running = await send(clock(store), 'POST', { body: { frozen: false } });
    expect(running.json.content.frozen).toBe(false);
    const later = Date.parse((await send(clock(store))).json.content.now);
    expect(later).toBeGreaterThanOrEqual(Date.parse('2027-01-02T02:30:00Z'));

    const released = await send(clock(store), 'DELETE');
    expect(released.json.content.wall_clock).toBe(true);
    expect(Math.abs(Date.parse(released.json.content.now) - Date.now())).toBeLessThan(60_000);
  });

  it.each([
    [{ when: 'tomorrow' }, 'when'],
    [{ now: 'tomorrow' }, 'now'],
    [{ now: '2027-01-01T00:00:00' }, 'now'],
    [{ now: '2027-01-01T00:00:00Z', advance: 'PT1H' }, 'advance'],
    [{ advance: 'P' }, 'advance'],
    [{ advance: 'PT' }, 'advance'],
    [{ advance: 3600 }, 'advance'],
    [{ advance: 'P99999999D' }, 'advance'],
    [{ now: '2200-01-01T00:00:00Z' }, 'now'],
    [{ frozen: 'yes' }, 'frozen'],
    [{}, '(body)'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const r = await send(clock('clock-bad'), 'POST', { body });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ success: false, content: { error: { code: 'invalid_body', details: [{ location: 'body', name: field }] } } });
    expect((await send(clock('clock-bad'))).json.content.wall_clock).toBe(true);
  });

  it('refuses a body that is not JSON and a method it does not have', async () => {
    expect((await send(clock('clock-bad'), 'POST', { body: '{"now":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    const put = await send(clock('clock-bad'), 'PUT', { body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, DELETE');
  });

  it('keeps each store on its own clock', async () => {
    await send(clock('clock-a'), 'POST', { body: { now: '2030-06-01T00:00:00Z', frozen: true } });
    expect((await send(clock('clock-b'))).json.content.wall_clock).toBe(true);
    expect((await send(clock('clock-a'))).json.content.now).toBe('2030-06-01T00:00:00.000Z');
  });
});

describe('tokens and carts expire on the store clock', () => {
  it('a token is refused once its lifetime has passed: 401 with the envelope and WWW-Authenticate', async () => {
    const store = 'token-life';
    await send(clock(store), 'POST', { body: { now: '2027-05-01T08:00:00Z', frozen: true } });
    const { auth } = await anonymous(wb, store);
    await call(wb, 'listCountries', 'GET', '/common/countries', { headers: auth, store });
    await send(clock(store), 'POST', { body: { advance: 'PT23H59M' } });
    await call(wb, 'listCountries', 'GET', '/common/countries', { headers: auth, store });
    await send(clock(store), 'POST', { body: { advance: 'PT1M' } });
    const r = await call(wb, 'listCountries', 'GET', '/common/countries', { headers: auth, store });
    expect(r.status).toBe(401);
    expect(r.json.message).toMatch(/expired at 2027-05-02T08:00:00.000Z/);
    expect(r.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
  });

  it('an active cart past its expiry reads as expired and cannot be ordered', async () => {
    const store = 'cart-life';
    const { auth } = await anonymous(wb, store);
    const carts = (await send(`${backOffice(wb, store)}/world/carts`)).json as Array<{ id: string; active: boolean; expires_at: string; cart_items: unknown[] }>;
    const cart = carts.find((c) => c.active && c.cart_items.length > 0)!;
    const open = await call(wb, 'getPosCart', 'GET', `/pos/carts/${cart.id}`, { headers: auth, store });
    expect(open.json.content.cart).toMatchObject({ active: true });
    expect(open.json.content.cart.status).not.toBe('expired');

    await send(clock(store), 'POST', { body: { now: new Date(Date.parse(cart.expires_at) + 1000).toISOString() } });
    const { auth: fresh } = await anonymous(wb, store);
    const expired = await call(wb, 'getPosCart', 'GET', `/pos/carts/${cart.id}`, { headers: fresh, store });
    expect(expired.json.content.cart).toMatchObject({ active: false, status: 'expired', expires_at: cart.expires_at });
    const order = await send(`${backOffice(wb, store)}/orders`, 'POST', { body: { cart_id: cart.id, user_id: 'usr_x' } });
    expect(order.status).toBe(409);
    expect(order.json.message).toMatch(/expired/);
  });
});

describe('advancing plays the retry ladder at its due times', () => {
  it('sends each retry at its due time, in order, and a 410 disables the subscription', async () => {
    const store = 'ladder';
    // Answers 500, 503, then 410: three attempts of one event, then the subscription is disabled.
    const answers = [500, 503, 410];
    const seen: Array<{ timestamp: string; attempt: number }> = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ timestamp: JSON.parse(body).timestamp, attempt: seen.length + 1 });
        res.writeHead(answers[seen.length - 1] ?? 200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      await send(clock(store), 'POST', { body: { now: '2027-02-01T10:00:00Z', frozen: true } });
      const sub = await send(`${wb.url}/api/v1/${store}/admin/webhooks`, 'POST', { headers: ADMIN, body: { url, events: ['order.created'] } });
      expect(sub.status).toBe(201);
      const webhookId = sub.json.content.webhook.id;
      const raised = await send(`${wb.url}/__simulator/stores/${store}/events`, 'POST', { body: { event: 'order.created' } });
      expect(raised.status).toBe(202);

      // Frozen: the first attempt is due at 10:00:00 and is sent now; the retries wait for the clock. Waited
      // on the delivery log's state (attempt 1 answered, attempt 2 scheduled), not on a sleep: the retry is
      // due 5 s after attempt 1 ended on the store's frozen clock, and nothing more was sent.
      const delays = deliveryRules.retryDelaysSeconds.map((s) => s * 1000);
      const deliveries = `${wb.url}/api/v1/${store}/admin/webhooks/deliveries?webhook_id=${webhookId}`;
      const waiting = await waitFor(async () => {
        const rows = (await send(deliveries, 'GET', { headers: ADMIN })).json.content.deliveries as Array<{ attempt: number; status: string; scheduled_at: string; completed_at: string | null }>;
        const first = rows.find((a) => a.attempt === 1 && a.completed_at);
        const second = rows.find((a) => a.attempt === 2 && a.status === 'scheduled');
        return first && second ? { first, second } : undefined;
      }, 'attempt 1 answered and attempt 2 scheduled', 40_000);
      expect(waiting.first.completed_at).toBe('2027-02-01T10:00:00.000Z');
      expect(Date.parse(waiting.second.scheduled_at)).toBe(Date.parse(waiting.first.completed_at!) + delays[0]);
      expect(seen).toHaveLength(1);
      expect((await send(clock(store))).json.content).toMatchObject({ now: '2027-02-01T10:00:00.000Z', frozen: true });

      // The advance jumps between due times and runs only while an attempt is on the wire, so an attempt is
      // late by at most the wall time the advance took (measured around it), never by a jump.
      const wallBefore = Date.now();
      const advanced = await send(clock(store), 'POST', { body: { advance: 'PT1H' } });
      const advanceTook = Date.now() - wallBefore;
      expect(advanced.status).toBe(200);
      expect(advanced.json.content).toMatchObject({ now: '2027-02-01T11:00:00.000Z', frozen: true, attempts_due_on_the_way: 2 });
      expect(seen.map((s) => s.attempt)).toEqual([1, 2, 3]);

      const list = await send(`${wb.url}/api/v1/${store}/admin/webhooks/deliveries?webhook_id=${webhookId}`, 'GET', { headers: ADMIN });
      expect(validateResponse('admin', 'listWebhookDeliveries', list.status, list.json)).toEqual({ valid: true });
      const attempts = [...list.json.content.deliveries].sort((a: { attempt: number }, b: { attempt: number }) => a.attempt - b.attempt);
      expect(attempts.map((a: { response_status: number }) => a.response_status)).toEqual([500, 503, 410]);
      for (let i = 1; i < attempts.length; i++) {
        const due = Date.parse(attempts[i - 1].completed_at) + delays[i - 1];
        // Scheduled at its due time and sent then on the store's clock, not before, and not after it by
        // more than the advance's own running time (a jump past it, to the next due time or to 11:00, is far more).
        expect(Date.parse(attempts[i].scheduled_at), `attempt ${i + 1} scheduled`).toBe(due);
        const sent = Date.parse(attempts[i].sent_at);
        expect(sent, `attempt ${i + 1}`).toBeGreaterThanOrEqual(due);
        expect(sent - due, `attempt ${i + 1} late by more than the advance ran (${advanceTook} ms)`).toBeLessThanOrEqual(advanceTook);
        expect(Date.parse(seen[i].timestamp)).toBe(sent);
      }
      const hook = await send(`${wb.url}/api/v1/${store}/admin/webhooks/${webhookId}`, 'GET', { headers: ADMIN });
      expect(hook.json.content.webhook).toMatchObject({ status: 'disabled' });
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});

describe('the clocks outlive a restart', () => {
  it('keeps each store clock in the data directory (0600)', async () => {
    const { dir, remove } = await tempDir('clocks-');
    try {
      const first = await startSandbox({ sandbox: { dataDir: dir }, webhooks: { dataDir: dir } });
      await send(`${backOffice(first, 'kept')}/clock`, 'POST', { body: { now: '2028-08-08T08:08:08Z', frozen: true } });
      await first.close();
      const { statSync } = await import('node:fs');
      // One settings row of the workbench's one database (workbench/store/), which is 0600.
      expect(statSync(`${dir}/workbench.sqlite`).mode & 0o777).toBe(0o600);
      expect(storedSetting(dir, 'clocks')).toMatchObject({ v: 1, clocks: { kept: { kind: 'frozen', at: Date.parse('2028-08-08T08:08:08Z') } } });
      const second = await startSandbox({ sandbox: { dataDir: dir }, webhooks: { dataDir: dir } });
      try {
        expect((await send(`${backOffice(second, 'kept')}/clock`)).json.content).toMatchObject({ now: '2028-08-08T08:08:08.000Z', frozen: true });
      } finally {
        await second.close();
      }
    } finally {
      await remove();
    }
  });
});
