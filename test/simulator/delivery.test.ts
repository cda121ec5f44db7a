// The retry contract of seed 3.2 against real subscriber servers on loopback, through the workbench's
// live Admin API, at time scale 0.01 (5 s / 30 s / 5 min / 30 s -> 50 ms / 300 ms / 3 s / 300 ms).
// No assertion depends on wall-clock speed: counts, order and the recorded schedule are exact (both sides:
// each retry is due exactly its delay after the previous attempt ended); arrival gaps are only checked
// against their lower bound (a timer never fires early), as lateness is the machine's load, not the code.
// "Nothing more is sent" is read from the state (no attempt left scheduled or in flight: the scheduled
// rows are the queue of retries), never from a sleep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryRules } from '../../workbench/simulator/rules.js';
import { verifySignature } from '../../src/webhooks/verify.js';
import {
  admin,
  closedPort,
  createWebhook,
  deliveries,
  expectAllValid,
  freshStore,
  startReceiver,
  startWorkbench,
  TEST_TIMEOUT_MS,
  waitFor,
  type Bench,
  type Receiver,
} from './helpers.js';

const SCALE = 0.01;
const delays = deliveryRules.retryDelaysSeconds.map((s) => s * 1000 * SCALE);
const timeoutMs = TEST_TIMEOUT_MS;

let bench: Bench;
const receivers: Receiver[] = [];
beforeAll(async () => {
  bench = await startWorkbench({ timeScale: SCALE });
});
afterAll(async () => {
  await bench.close();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

const settled = (rows: any[]) => rows.length > 0 && rows.every((r) => r.status !== 'scheduled' && r.status !== 'in_flight');

/** Nothing more will be sent: the store's log holds `count` attempts, none scheduled or in flight, and the subscriber saw each. */
async function expectNothingQueued(store: string, r: Receiver, count: number): Promise<void> {
  const rows = await deliveries(bench.server, store);
  expect(rows).toHaveLength(count);
  expect(rows.filter((x: any) => x.status === 'scheduled' || x.status === 'in_flight')).toEqual([]);
  expect(r.captured).toHaveLength(count);
}

describe('delivery outcomes', () => {
  it('2XX on the first attempt: one attempt, delivered', async () => {
    const store = freshStore('ok');
    const r = await receiver(() => ({ status: 204 }));
    const { secret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    const { event_id } = bench.sim.trigger(store, 'order.created');
    const rows = await waitFor(async () => ((x) => settled(x) && x)(await deliveries(bench.server, store)), 'delivery');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event_id, attempt: 1, trigger: 'event', status: 'succeeded', outcome: 'delivered', response_status: 204, error_class: null, next_retry_at: null });
    await expectNothingQueued(store, r, 1);
    expect(r.captured[0].body.is_test).toBe(false);
    await expectAllValid(r.captured, secret);
  });

  it('500, 500, 200: three attempts, new delivery_id each, same event_id, delivered', async () => {
    const store = freshStore('flaky');
    const r = await receiver((c) => ({ status: c.n < 3 ? 500 : 200, body: c.n < 3 ? 'boom' : '{"received":true}' }));
    const { secret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    const { event_id } = bench.sim.trigger(store, 'order.created', { order_number: 'SO-FLAKY' });
    const rows = await waitFor(async () => ((x) => x.at(-1)?.outcome === 'delivered' && x)(await deliveries(bench.server, store)), 'delivered');
    expect(rows.map((x) => [x.attempt, x.trigger, x.response_status, x.outcome])).toEqual([
      [1, 'event', 500, 'retry_scheduled'],
      [2, 'retry', 500, 'retry_scheduled'],
      [3, 'retry', 200, 'delivered'],
    ]);
    expect(new Set(r.captured.map((c) => c.body.delivery_id)).size).toBe(3);
    expect(new Set(r.captured.map((c) => c.body.event_id))).toEqual(new Set([event_id]));
    expect(r.captured.map((c) => c.body.delivery_id)).toEqual(rows.map((x) => x.delivery_id));
    // The event itself is identical in every attempt; only the per-attempt fields change.
    expect(new Set(r.captured.map((c) => JSON.stringify(c.body.payload))).size).toBe(1);
    expect(r.captured[0].body.payload.properties.order_number).toBe('SO-FLAKY');
    expect(rows[0].response_body_excerpt).toBe('boom');
    await expectAllValid(r.captured, secret);
  });

  it('always 500: exactly 4 attempts at the scaled 5 s / 30 s / 5 min offsets, then failed', async () => {
    const store = freshStore('down');
    const r = await receiver(() => ({ status: 500, body: 'x'.repeat(5000) }));
    const { secret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    bench.sim.trigger(store, 'order.created');
    const rows = await waitFor(async () => ((x) => x.length === 4 && settled(x) && x)(await deliveries(bench.server, store)), 'four attempts');
    expect(rows.map((x) => [x.attempt, x.status, x.outcome])).toEqual([
      [1, 'failed', 'retry_scheduled'],
      [2, 'failed', 'retry_scheduled'],
      [3, 'failed', 'retry_scheduled'],
      [4, 'failed', 'failed'],
    ]);
    // The recorded schedule is exact: each retry is due its delay after the previous attempt ended.
    for (let i = 1; i < 4; i++) {
      const due = Date.parse(rows[i].scheduled_at) - Date.parse(rows[i - 1].completed_at);
      expect(due).toBe(delays[i - 1]);
      expect(rows[i - 1].next_retry_at).toBe(rows[i].scheduled_at);
    }
    // What the subscriber saw: gaps of at least the delay (never early; how late is the machine's load).
    for (let i = 1; i < 4; i++) {
      const gap = r.captured[i].at - r.captured[i - 1].at;
      expect(gap).toBeGreaterThanOrEqual(delays[i - 1] - 2);
    }
    // Excerpts are truncated to 1,024 characters.
    expect(rows[0].response_body_excerpt).toHaveLength(1024);
    expect(rows[0].response_body_truncated).toBe(true);
    expect(rows[3].next_retry_at).toBeNull();
    await expectNothingQueued(store, r, 4);
    await expectAllValid(r.captured, secret);
  });

  it('no answer within the time-out fails the attempt (error class timeout) and is retried', async () => {
    const store = freshStore('slow');
    const r = await receiver((c) => (c.n === 1 ? { hang: true } : { status: 200 }));
    const { secret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    bench.sim.trigger(store, 'order.created');
    const rows = await waitFor(async () => ((x) => x.at(-1)?.outcome === 'delivered' && x)(await deliveries(bench.server, store)), 'delivered after a time-out');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ status: 'failed', outcome: 'retry_scheduled', error_class: 'timeout', response_status: null, response_body_excerpt: null });
    expect(rows[0].duration_ms).toBeGreaterThanOrEqual(timeoutMs - 2);
    await expectAllValid(r.captured, secret);
  });

  it('connection refused is a failed attempt, retried to the end of the schedule', async () => {
    const store = freshStore('refused');
    const port = await closedPort();
    await createWebhook(bench.server, store, { url: `http://127.0.0.1:${port}/hook`, events: ['order.created'] });
    bench.sim.trigger(store, 'order.created');
    const rows = await waitFor(async () => ((x) => x.length === 4 && settled(x) && x)(await deliveries(bench.server, store)), 'four refused attempts');
    expect(rows.map((x) => x.error_class)).toEqual(Array(4).fill('connection_refused'));
    expect(rows.at(-1).outcome).toBe('failed');
  });

  it('a 3XX is a failure and its Location is not followed', async () => {
    const store = freshStore('redirect');
    const r = await receiver((c) => (c.path === '/hook' && c.n === 1 ? { status: 301, headers: { location: '/moved' } } : { status: 200 }));
    const { secret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    bench.sim.trigger(store, 'order.created');
    const rows = await waitFor(async () => ((x) => x.at(-1)?.outcome === 'delivered' && x)(await deliveries(bench.server, store)), 'delivered after a redirect');
    expect(rows[0]).toMatchObject({ status: 'failed', outcome: 'retry_scheduled', response_status: 301, error_class: 'redirect' });
    expect(r.captured.map((c) => c.path)).toEqual(['/hook', '/hook']);
    await expectAllValid(r.captured, secret);
  });
});

describe('410 disables the subscription permanently', () => {
  it('410 on the first attempt: disabled, nothing more sent, later events not sent, test/retry/replay refused', async () => {
    const store = freshStore('gone');
    const r = await receiver(() => ({ status: 410 }));
    const { id, secret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    const first = bench.sim.trigger(store, 'order.created');
    const rows = await waitFor(async () => ((x) => settled(x) && x)(await deliveries(bench.server, store)), 'the 410');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'failed', outcome: 'webhook_disabled', response_status: 410, error_class: 'http_status', next_retry_at: null });

    const later = bench.sim.trigger(store, 'order.created');
    expect(later.deliveries).toEqual([]);
    for (const [op, path] of [
      ['sendTestWebhook', `/webhooks/${id}/test`],
      ['retryWebhookDelivery', `/webhooks/${id}/deliveries/${rows[0].delivery_id}/retry`],
      ['replayWebhookEvent', `/webhooks/${id}/replay-event/${first.event_id}`],
    ]) {
      const refused = await admin(bench.server, op, 'POST', store, path);
      expect(refused.status).toBe(409);
      expect(refused.json.content.error.code).toBe('webhook_disabled');
      expect(refused.json.message).toMatch(/permanently.*Create a new webhook/);
    }
    await expectNothingQueued(store, r, 1);
    await expectAllValid(r.captured, secret);

    // The disabled webhook no longer counts toward the limit: 5 new ones fit.
    const again = await receiver(() => ({ status: 200 }));
    for (let i = 0; i < deliveryRules.maxEnabledWebhooksPerStore; i++) await createWebhook(bench.server, store, { url: again.url, events: ['order.created'] });
  });

  it('410 after a retry: disabled, pending retries of other events cancelled, nothing more sent', async () => {
    const store = freshStore('gone-later');
    let eventA = '';
    // B always fails; A fails once, then answers 410.
    const r = await receiver((c) => ({ status: c.body.event_id === eventA && r.captured.filter((x) => x.body.event_id === eventA).length > 1 ? 410 : 500 }));
    const { secret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created', 'order.updated'] });
    // B first, until its last retry waits the long (scaled 5 min) delay: that retry is pending throughout.
    const eventB = bench.sim.trigger(store, 'order.updated').event_id;
    await waitFor(async () => (await deliveries(bench.server, store)).filter((x) => x.status === 'failed').length === 3, 'B failed three times');
    eventA = bench.sim.trigger(store, 'order.created').event_id;
    const rows = await waitFor(async () => ((x) => x.some((y) => y.outcome === 'webhook_disabled') && settled(x) && x)(await deliveries(bench.server, store)), '410 and cancellation');
    const ofA = rows.filter((x) => x.event_id === eventA);
    const ofB = rows.filter((x) => x.event_id === eventB);
    expect(ofA.map((x) => [x.attempt, x.response_status, x.outcome])).toEqual([
      [1, 500, 'retry_scheduled'],
      [2, 410, 'webhook_disabled'],
    ]);
    expect(ofB.map((x) => [x.attempt, x.status, x.outcome])).toEqual([
      [1, 'failed', 'retry_scheduled'],
      [2, 'failed', 'retry_scheduled'],
      [3, 'failed', 'retry_scheduled'],
      [4, 'cancelled', 'cancelled'],
    ]);
    expect(ofB[3].sent_at).toBeNull();
    expect(bench.sim.trigger(store, 'order.created').deliveries).toEqual([]);
    // Past the time B's last retry was due: still nothing more.
    await waitFor(() => Date.now() > Date.parse(ofB[3].scheduled_at) + 100, "B's cancelled retry time");
    expect(r.captured.map((c) => c.body.event_id)).toEqual([eventB, eventB, eventB, eventA, eventA]);
    await expectAllValid(r.captured, secret);
  });
});

describe('headers and secrets', () => {
  it('custom headers on every attempt, their values never in a response or the log', async () => {
    const store = freshStore('custom');
    const r = await receiver((c) => ({ status: c.n < 3 ? 503 : 200 }));
    const headers = { 'X-Partner-Tenant': 'kesari-naturals', Authorization: 'Basic cGFydG5lcjpzM2NyZXQ=' };
    const { secret, reply } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'], custom_headers: headers });
    expect(reply.json.content.webhook.custom_header_names).toEqual(Object.keys(headers));
    expect(reply.text).not.toContain('kesari-naturals');
    bench.sim.trigger(store, 'order.created');
    const rows = await waitFor(async () => ((x) => x.at(-1)?.outcome === 'delivered' && x)(await deliveries(bench.server, store)), 'delivered');
    expect(r.captured).toHaveLength(3);
    for (const c of r.captured) {
      expect(c.headers['x-partner-tenant']).toBe('kesari-naturals');
      expect(c.headers.authorization).toBe(headers.Authorization);
    }
    const log = JSON.stringify(rows);
    for (const secretish of ['kesari-naturals', headers.Authorization, secret]) expect(log).not.toContain(secretish);
    await expectAllValid(r.captured, secret);
  });

  it('rotation: every attempt after it, retries of older events included, is signed with the new secret only', async () => {
    const store = freshStore('rotate');
    const r = await receiver((c) => {
      if (c.n === 1) return { hang: true }; // in flight while the secret is rotated; it then times out
      return { status: c.n === 2 ? 500 : 200 };
    });
    const { id, secret: oldSecret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    bench.sim.trigger(store, 'order.created');
    await waitFor(() => r.captured.length === 1, 'first attempt in flight');
    const rotated = await admin(bench.server, 'rotateWebhookSecret', 'POST', store, `/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.json.content.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    // The first attempt (sent before the rotation) times out; the retries come after the rotation.
    const rows = await waitFor(async () => ((x) => x.at(-1)?.outcome === 'delivered' && x)(await deliveries(bench.server, store)), 'delivered');
    expect(rows.map((x) => x.attempt)).toEqual([1, 2, 3]);
    const [before, ...after] = r.captured;
    await expectAllValid([before], oldSecret);
    await expectAllValid(after, newSecret);
    for (const c of after) expect(verifySignature(c.raw, c.headers['x-svc-signature'], oldSecret)).toEqual({ ok: false, reason: 'mismatch' });
    // Events raised after the rotation too.
    bench.sim.trigger(store, 'order.created');
    await waitFor(() => r.captured.length === 4, 'a new event');
    await expectAllValid([r.captured[3]], newSecret);
  });
});

describe('test, retry and replay through the Admin API', () => {
  it('test delivery: is_test true, a subscribed event, signed like any other', async () => {
    const store = freshStore('test');
    const r = await receiver(() => ({ status: 200 }));
    const { id, secret } = await createWebhook(bench.server, store, { url: r.url, events: ['payment.captured', 'order.created'] });
    const refused = await admin(bench.server, 'sendTestWebhook', 'POST', store, `/webhooks/${id}/test`, { event: 'cart.updated' });
    expect(refused.status).toBe(400);
    expect(refused.json.content.error.code).toBe('event_not_subscribed');
    const accepted = await admin(bench.server, 'sendTestWebhook', 'POST', store, `/webhooks/${id}/test`);
    expect(accepted.status).toBe(202);
    expect(accepted.json.content.delivery).toMatchObject({ webhook_id: id, event: 'payment.captured', is_test: true, trigger: 'test', status: 'scheduled', attempt: 1 });
    const chosen = await admin(bench.server, 'sendTestWebhook', 'POST', store, `/webhooks/${id}/test`, { event: 'order.created' });
    expect(chosen.status).toBe(202);
    await waitFor(() => r.captured.length === 2, 'two test deliveries');
    expect(r.captured.map((c) => [c.body.event, c.body.is_test]).sort()).toEqual([
      ['order.created', true],
      ['payment.captured', true],
    ]);
    await expectAllValid(r.captured, secret);
  });

  it('retry one delivery: one new attempt, same event_id, refused while one is pending', async () => {
    const store = freshStore('retry');
    const r = await receiver((c) => ({ status: c.n <= 3 ? 500 : 200 }));
    const { id, secret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    const { event_id } = bench.sim.trigger(store, 'order.created');
    // After three failures the last automatic retry waits the long (scaled 5 min) delay: it is pending.
    const failed = await waitFor(async () => ((x) => x.filter((y) => y.status === 'failed').length === 3 && x)(await deliveries(bench.server, store)), 'three failures');
    const busy = await admin(bench.server, 'retryWebhookDelivery', 'POST', store, `/webhooks/${id}/deliveries/${failed[0].delivery_id}/retry`);
    expect(busy.status).toBe(409);
    expect(busy.json.content.error.code).toBe('delivery_in_progress');
    expect(busy.json.message).toContain(failed[3].delivery_id);
    await waitFor(async () => (await deliveries(bench.server, store)).at(-1)?.outcome === 'delivered', 'delivered');

    const manual = await admin(bench.server, 'retryWebhookDelivery', 'POST', store, `/webhooks/${id}/deliveries/${failed[0].delivery_id}/retry`);
    expect(manual.status).toBe(202);
    expect(manual.json.content.delivery).toMatchObject({ event_id, trigger: 'manual_retry', status: 'scheduled', attempt: 5 });
    const rows = await waitFor(async () => ((x) => x.length === 5 && settled(x) && x)(await deliveries(bench.server, store)), 'manual retry done');
    expect(rows[4]).toMatchObject({ delivery_id: manual.json.content.delivery.delivery_id, outcome: 'delivered' });
    expect(new Set(r.captured.map((c) => c.body.event_id))).toEqual(new Set([event_id]));
    expect(new Set(r.captured.map((c) => c.body.delivery_id)).size).toBe(5);

    const unknown = await admin(bench.server, 'retryWebhookDelivery', 'POST', store, `/webhooks/${id}/deliveries/dlv_NOPE/retry`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.content.error.details[0].name).toBe('delivery_id');
    const otherHook = await admin(bench.server, 'retryWebhookDelivery', 'POST', store, `/webhooks/wh_NOPE/deliveries/${failed[0].delivery_id}/retry`);
    expect(otherHook.status).toBe(404);
    await expectAllValid(r.captured, secret);
  });

  it('a failed manual retry is a single attempt: no automatic retries follow', async () => {
    const store = freshStore('retry-once');
    const r = await receiver((c) => ({ status: c.n === 1 ? 200 : 500 }));
    const { id } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    bench.sim.trigger(store, 'order.created');
    const [first] = await waitFor(async () => ((x) => settled(x) && x)(await deliveries(bench.server, store)), 'delivered');
    const manual = await admin(bench.server, 'retryWebhookDelivery', 'POST', store, `/webhooks/${id}/deliveries/${first.delivery_id}/retry`);
    expect(manual.status).toBe(202);
    const rows = await waitFor(async () => ((x) => x.length === 2 && settled(x) && x)(await deliveries(bench.server, store)), 'manual retry failed');
    expect(rows[1]).toMatchObject({ trigger: 'manual_retry', outcome: 'failed', response_status: 500, next_retry_at: null });
    await expectNothingQueued(store, r, 2);
  });

  it('replay an event: a new sequence with the automatic retries, same event_id; unknown or unsubscribed refused', async () => {
    const store = freshStore('replay');
    const r = await receiver((c) => ({ status: c.n === 2 ? 500 : 200 }));
    const { id, secret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    const { event_id } = bench.sim.trigger(store, 'order.created');
    await waitFor(async () => ((x) => settled(x) && x)(await deliveries(bench.server, store)), 'delivered');
    const replay = await admin(bench.server, 'replayWebhookEvent', 'POST', store, `/webhooks/${id}/replay-event/${event_id}`);
    expect(replay.status).toBe(202);
    expect(replay.json.content.delivery).toMatchObject({ event_id, trigger: 'replay', attempt: 2, status: 'scheduled' });
    const rows = await waitFor(async () => ((x) => x.length === 3 && settled(x) && x)(await deliveries(bench.server, store)), 'replay delivered after a retry');
    expect(rows.map((x) => [x.attempt, x.trigger, x.outcome])).toEqual([
      [1, 'event', 'delivered'],
      [2, 'replay', 'retry_scheduled'],
      [3, 'retry', 'delivered'],
    ]);
    // The retry of a replay waits the first delay of the schedule.
    expect(Date.parse(rows[2].scheduled_at) - Date.parse(rows[1].completed_at)).toBe(delays[0]);

    const missing = await admin(bench.server, 'replayWebhookEvent', 'POST', store, `/webhooks/${id}/replay-event/evt_NOPE`);
    expect(missing.status).toBe(404);
    const other = bench.sim.trigger(store, 'cart.updated');
    const unsubscribed = await admin(bench.server, 'replayWebhookEvent', 'POST', store, `/webhooks/${id}/replay-event/${other.event_id}`);
    expect(unsubscribed.status).toBe(400);
    expect(unsubscribed.json.content.error.code).toBe('event_not_subscribed');
    await expectAllValid(r.captured, secret);
  });
});
