import { existsSync } from 'node:fs';
// Retention (issue 30): the simulator prunes, per store and on the store's own clock, events older than the
// age bound and events beyond the newest N sent to a subscription / the newest M that no subscription
// received, with their attempts, in bounded steps; never an event with an attempt scheduled or in flight.
// A replay, retry or event list reaching past it is told the event was pruned and what the retention is.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractModel } from '../../workbench/contract/model.js';
import { parseRetention, DEFAULT_RETENTION } from '../../workbench/simulator/retention.js';
import { openDatabase } from '../../workbench/store/sqlite.js';
import { SimulatorStore } from '../../workbench/simulator/store.js';
import { admin, call, createWebhook, deliveries, freshStore, startReceiver, startWorkbench, waitFor, type Bench, type Receiver } from './helpers.js';

const RETENTION = { maxEvents: 4, maxUnreceived: 3 };
let bench: Bench;
let receiver: Receiver;
/** Order numbers the receiver answers 500 to, or never answers. */
const failing = new Set<string>();
const hanging = new Set<string>();

beforeAll(async () => {
  receiver = await startReceiver((c) => {
    const n = c.body?.payload?.properties?.order_number;
    if (hanging.has(n)) return { hang: true };
    return { status: failing.has(n) ? 500 : 200 };
  });
  // Real retry delays (5 s first): a failed attempt's retry stays scheduled while the test looks.
  bench = await startWorkbench({ timeScale: 1, retention: RETENTION });
});
afterAll(async () => {
  await bench.close();
  await receiver.close();
});

const raise = (store: string, n: number, prefix: string, event = 'order.created') =>
  Array.from({ length: n }, (_, i) => bench.sim.trigger(store, event, event === 'order.created' ? { order_number: `${prefix}-${i}` } : undefined).event_id);
const eventsOf = async (b: Bench, store: string, query = '') => {
  const r = await call(b.server.url, 'GET', `/__simulator/stores/${store}/events${query}`, undefined, {});
  expect(r.status, r.text).toBe(200);
  // Sorted: ids raised in the same millisecond are not in the order they were raised (ULIDs).
  return (r.json.content.events as Array<{ event_id: string }>).map((e) => e.event_id).sort();
};
const sorted = (ids: string[]) => [...ids].sort();

describe('retention', () => {
  it('keeps the newest unreceived and received events per store, with their attempts, and prunes the rest', async () => {
    const store = freshStore('retention-rules');
    const unreceived = raise(store, 10, 'U');
    await bench.sim.settled();
    await bench.sim.prune();
    expect(await eventsOf(bench, store)).toEqual(sorted(unreceived.slice(-3)));

    await createWebhook(bench.server, store, { url: receiver.url, events: ['order.created'] });
    const received = raise(store, 6, 'R');
    await waitFor(async () => (await deliveries(bench.server, store)).filter((d) => d.status === 'succeeded').length === 6, '6 delivered');
    await bench.sim.prune();
    // Both bounds at once: the 4 newest received events and the 3 newest that no subscription got.
    expect(new Set(await eventsOf(bench, store))).toEqual(new Set([...unreceived.slice(-3), ...received.slice(-4)]));
    const log = await deliveries(bench.server, store);
    expect(log.map((d) => d.event_id).sort()).toEqual(received.slice(-4).sort());
    // A second pass has nothing left to do.
    await bench.sim.prune();
    expect(await deliveries(bench.server, store)).toHaveLength(4);
  });

  it('answers a replay, retry or event list beyond the retention with a 4XX saying it was pruned and what is kept', async () => {
    const store = freshStore('retention-replay');
    const { id } = await createWebhook(bench.server, store, { url: receiver.url, events: ['order.created'] });
    const events = raise(store, 6, 'P');
    await waitFor(async () => (await deliveries(bench.server, store)).filter((d) => d.status === 'succeeded').length === 6, '6 delivered');
    const oldest = (await deliveries(bench.server, store, `&event_id=${events[0]}`))[0];
    await bench.sim.prune();

    const replay = await admin(bench.server, 'replayWebhookEvent', 'POST', store, `/webhooks/${id}/replay-event/${events[0]}`);
    expect(replay.status).toBe(404);
    expect(replay.json.message).toMatch(new RegExp(`^Event ${events[0]} was pruned: the simulator keeps 30 days, and per store the newest 4 events sent to a subscription and 3 events no subscription received \\(--webhook-retention\\)`));
    expect(replay.json.content.error.details).toEqual([{ location: 'path', name: 'event_id', message: 'pruned by the retention' }]);

    const retry = await admin(bench.server, 'retryWebhookDelivery', 'POST', store, `/webhooks/${id}/deliveries/${oldest.delivery_id}/retry`);
    expect(retry.status).toBe(404);
    expect(retry.json.message).toMatch(new RegExp(`^Delivery ${oldest.delivery_id} was pruned: `));

    // The event list (what `webhooks listen --replay-since/--replay` reads): a time before the pruned ones is
    // refused naming the first time it can give; within the retention it answers.
    const before = await call(bench.server.url, 'GET', `/__simulator/stores/${store}/events?since=2020-01-01T00:00:00Z`, undefined, {});
    expect(before.status).toBe(400);
    expect(before.json.content.error.details[0].name).toBe('since');
    expect(before.json.message).toMatch(/were pruned: the simulator keeps 30 days.*Give since \S+ or later, or leave since out/);
    const byDelivery = await call(bench.server.url, 'GET', `/__simulator/stores/${store}/events?delivery_id=${oldest.delivery_id}`, undefined, {});
    expect(byDelivery.status).toBe(404);
    expect(byDelivery.json.message).toMatch(/was pruned/);
    expect(await eventsOf(bench, store)).toEqual(sorted(events.slice(-4)));

    // Within the retention a replay works as before.
    const kept = await admin(bench.server, 'replayWebhookEvent', 'POST', store, `/webhooks/${id}/replay-event/${events[5]}`);
    expect(kept.status).toBe(202);
  });

  it('never prunes an event with an attempt scheduled (a pending retry) or in flight', async () => {
    const store = freshStore('retention-pending');
    await createWebhook(bench.server, store, { url: receiver.url, events: ['order.created'] });
    failing.add('F-0');
    hanging.add('H-0');
    const [retrying] = raise(store, 1, 'F');
    const [onTheWire] = raise(store, 1, 'H');
    const later = raise(store, 6, 'L');
    const log = await waitFor(async () => {
      const rows = await deliveries(bench.server, store);
      const ok = rows.filter((d) => d.status === 'succeeded').length === 6 && rows.some((d) => d.event_id === retrying && d.status === 'scheduled') && receiver.captured.some((c) => c.body.event_id === onTheWire);
      return ok && rows;
    }, 'a retry scheduled, an attempt in flight, 6 delivered');
    expect(log.find((d) => d.event_id === onTheWire)!.status).toBe('in_flight');
    await bench.sim.prune();
    expect(new Set(await eventsOf(bench, store))).toEqual(new Set([retrying, onTheWire, ...later.slice(-4)]));
    const after = await deliveries(bench.server, store);
    // Every attempt of the two pending events is still in the log (the failed first one included).
    expect(after.filter((d) => d.event_id === retrying).map((d) => d.status).sort()).toEqual(['failed', 'scheduled']);
    expect(after.filter((d) => d.event_id === onTheWire).map((d) => d.status)).toEqual(['in_flight']);
  });

  it('prunes by age on the store\'s own clock', async () => {
    const store = freshStore('retention-age');
    await createWebhook(bench.server, store, { url: receiver.url, events: ['order.created'] });
    const events = raise(store, 2, 'A');
    await waitFor(async () => (await deliveries(bench.server, store)).filter((d) => d.status === 'succeeded').length === 2, '2 delivered');
    await bench.sim.prune();
    expect(await eventsOf(bench, store)).toEqual(sorted(events));
    // 31 days later in this store only: its history is past the 30-day bound; other stores keep theirs.
    bench.sim.clocks.set(store, Date.now() + 31 * 86_400_000);
    await bench.sim.prune();
    expect(await eventsOf(bench, store)).toEqual([]);
    expect(await deliveries(bench.server, store)).toEqual([]);
    bench.sim.clocks.release(store);
  });

  it('parses --webhook-retention and names what is wrong', () => {
    expect(parseRetention('days=7,events=5000')).toEqual({ ...DEFAULT_RETENTION, maxAgeMs: 7 * 86_400_000, maxEvents: 5000 });
    expect(parseRetention('unreceived=0')).toEqual({ ...DEFAULT_RETENTION, maxUnreceived: 0 });
    expect(() => parseRetention('weeks=2')).toThrow(/"weeks=2" is not key=value with a key of days, events, unreceived/);
    expect(() => parseRetention('days=0')).toThrow(/days must be more than 0/);
    expect(() => parseRetention('events=1.5')).toThrow(/events must be a whole number/);
  });

  it('is what the contract states for replays and the log (register AD-051): both bounds, not 30 days alone', async () => {
    const adminDoc = await contractModel('admin');
    const days = `${DEFAULT_RETENTION.maxAgeMs / 86_400_000} days`;
    const count = (n: number) => n.toLocaleString('en-US');
    const replay = adminDoc.operation('replayWebhookEvent')!.definition.description as string;
    for (const bound of [`at most ${days}`, `newest ${count(DEFAULT_RETENTION.maxEvents)} events`, `newest ${count(DEFAULT_RETENTION.maxUnreceived)} events`]) {
      expect(replay, bound).toContain(bound);
    }
    const log = adminDoc.operation('listWebhookDeliveries')!.definition.description as string;
    for (const bound of [`at most ${days}`, `newest ${count(DEFAULT_RETENTION.maxEvents)} events`]) expect(log, bound).toContain(bound);
  });
});

describe('retention with a data directory', () => {
  it('survives a restart: what was pruned stays pruned (and is said so), what is kept is replayed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'simulator-retention-'));
    try {
      const first = await startWorkbench({ dataDir: dir, retention: { maxEvents: 2, maxUnreceived: 2 } });
      let id: string;
      let events: string[];
      let other: string[];
      try {
        ({ id } = await createWebhook(first.server, 'restart-store', { url: receiver.url, events: ['order.created'] }));
        events = Array.from({ length: 5 }, (_, i) => first.sim.trigger('restart-store', 'order.created', { order_number: `D-${i}` }).event_id);
        other = Array.from({ length: 4 }, () => first.sim.trigger('restart-store', 'customer.created').event_id);
        await waitFor(async () => (await deliveries(first.server, 'restart-store')).filter((d) => d.status === 'succeeded').length === 5, '5 delivered');
        await first.sim.prune();
      } finally {
        await first.close();
      }
      const second = await startWorkbench({ dataDir: dir, retention: { maxEvents: 2, maxUnreceived: 2 } });
      try {
        expect(new Set(await eventsOf(second, 'restart-store'))).toEqual(new Set([...events.slice(-2), ...other.slice(-2)]));
        const gone = await admin(second.server, 'replayWebhookEvent', 'POST', 'restart-store', `/webhooks/${id}/replay-event/${events[0]}`);
        expect(gone.status).toBe(404);
        expect(gone.json.message).toMatch(/was pruned/);
        const kept = await admin(second.server, 'replayWebhookEvent', 'POST', 'restart-store', `/webhooks/${id}/replay-event/${events[4]}`);
        expect(kept.status).toBe(202);
        await waitFor(async () => (await deliveries(second.server, 'restart-store', `&event_id=${events[4]}`)).some((d) => d.trigger === 'replay' && d.status === 'succeeded'), 'the replay delivered');
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('opens a file of the version before (0.2.x simulator.sqlite, taken over as workbench.sqlite): events get their received flag from the log, the file turns to incremental vacuum', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'simulator-retention-old-'));
    try {
      const old = openDatabase(path.join(dir, 'simulator.sqlite'));
      old.exec(await readFile(path.join(import.meta.dirname, 'fixtures/schema-before-retention.sql'), 'utf8'));
      const insertEvent = old.prepare(`INSERT INTO events (event_id, store_id, event, is_test, payload, created_at) VALUES (?, 'old-store', 'order.created', 0, '{}', ?)`);
      const now = Date.now();
      insertEvent.run('evt_01M8AAAAAAAAAAAAAAAAAAAAAA', now - 2);
      insertEvent.run('evt_01M8BBBBBBBBBBBBBBBBBBBBBB', now - 1);
      old.prepare(
        `INSERT INTO attempts (delivery_id, store_id, webhook_id, event_id, event, is_test, attempt, sequence_attempt, auto_retry, trigger, url, status, outcome, scheduled_at, created_at)
         VALUES ('dlv_01M8AAAAAAAAAAAAAAAAAAAAAA', 'old-store', 'wh_x', 'evt_01M8AAAAAAAAAAAAAAAAAAAAAA', 'order.created', 0, 1, 1, 1, 'event', 'http://127.0.0.1:9/h', 'succeeded', 'delivered', ?, ?)`,
      ).run(now - 2, now - 2);
      expect(old.pragma('auto_vacuum')).toBe(0);
      old.close();

      const store = SimulatorStore.open(dir);
      // unreceived = 0: the event no subscription got goes, the delivered one stays.
      expect(store.pruneStep('old-store', now, { ...DEFAULT_RETENTION, maxUnreceived: 0 }, 100)).toBe(1);
      expect(store.event('old-store', 'evt_01M8AAAAAAAAAAAAAAAAAAAAAA', 0)).toBeDefined();
      expect(store.event('old-store', 'evt_01M8BBBBBBBBBBBBBBBBBBBBBB', 0)).toBeUndefined();
      store.close();
      // 0.2.x's simulator.sqlite is now the workbench's one database (workbench/upgrade/).
      expect(existsSync(path.join(dir, 'simulator.sqlite'))).toBe(false);
      const reopened = openDatabase(path.join(dir, 'workbench.sqlite'));
      expect(reopened.pragma('auto_vacuum')).toBe(2);
      reopened.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
