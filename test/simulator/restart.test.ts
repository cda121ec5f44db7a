// Durability (issue 6): subscriptions, pending retries and the log live in SQLite under --data-dir. After
// a restart pending retries fire at their time, none lost and none sent twice; an attempt whose sender died
// mid-flight is settled when its claim's lease runs out and the schedule continues.
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { createSimulator, type Simulator } from '../../workbench/simulator/index.js';
import { deliveryRules } from '../../workbench/simulator/rules.js';
import { SimulatorStore } from '../../workbench/simulator/store.js';
import { call, createWebhook, deliveries, expectAllValid, startReceiver, startWorkbench, waitFor, type Receiver } from './helpers.js';

const SCALE = 0.01;
const { defer, tempDir } = cleanupAfterEach();


async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  defer(() => r.close());
  return r;
}

async function workbench(dataDir: string) {
  const bench = await startWorkbench({ dataDir, timeScale: SCALE });
  defer(bench.close);
  return bench;
}

const inStore = (sim: Simulator, store: string) => sim.service.listDeliveries(store, new URLSearchParams('limit=100')).body as any;

describe('restart', () => {
  it('pending retries survive a restart: they fire after it, once each, and the schedule goes on', async () => {
    const dir = await tempDir('simulator-');
    const store = 'restart-store';
    // Fails three times, then accepts: attempt 4 is pending (due after the scaled 5 min) when we stop.
    const r = await receiver((c) => ({ status: c.n <= 3 ? 500 : 200 }));
    const first = await workbench(dir);
    const { secret } = await createWebhook(first.server, store, { url: r.url, events: ['order.created'] });
    const { event_id } = first.sim.trigger(store, 'order.created');
    const before = await waitFor(async () => ((x) => x.length === 4 && x[3].status === 'scheduled' && x)(await deliveries(first.server, store)), 'attempt 4 pending');
    await first.close();

    // Reopen on the same data directory: the pending attempt is still there and still due at its time.
    const second = await workbench(dir);
    const after = await waitFor(async () => ((x) => x.length === 4 && x[3].status === 'succeeded' && x)(await deliveries(second.server, store)), 'attempt 4 after the restart');
    expect(after.map((x) => x.delivery_id)).toEqual(before.map((x) => x.delivery_id));
    expect(Date.parse(after[3].sent_at)).toBeGreaterThanOrEqual(Date.parse(before[3].scheduled_at));
    expect(after[3].scheduled_at).toBe(before[3].scheduled_at);
    expect(r.captured).toHaveLength(4);
    expect(r.captured.map((c) => c.body.delivery_id)).toEqual(after.map((x) => x.delivery_id));
    expect(new Set(r.captured.map((c) => c.body.event_id))).toEqual(new Set([event_id]));
    // The subscription and its secret survived too.
    await expectAllValid(r.captured, secret);
  });

  it('an attempt overdue while the simulator was down fires at once after the restart, once', async () => {
    const dir = await tempDir('simulator-');
    const store = 'overdue-store';
    const r = await receiver((c) => ({ status: c.n === 1 ? 500 : 200 }));
    const first = await workbench(dir);
    const { secret } = await createWebhook(first.server, store, { url: r.url, events: ['order.created'] });
    first.sim.trigger(store, 'order.created');
    const pending = await waitFor(async () => ((x) => x.length === 2 && x[1].status === 'scheduled' && x)(await deliveries(first.server, store)), 'retry pending');
    await first.close();
    await waitFor(() => Date.now() > Date.parse(pending[1].scheduled_at) + 50, 'the retry to be overdue');
    expect(r.captured).toHaveLength(1);
    const second = await workbench(dir);
    await waitFor(async () => (await deliveries(second.server, store)).at(-1)?.status === 'succeeded', 'overdue retry sent');
    expect(r.captured).toHaveLength(2);
    await expectAllValid(r.captured, secret);
  });

  it('two simulators on one data directory never send the same attempt twice', async () => {
    const dir = await tempDir('simulator-');
    const store = 'shared-store';
    const r = await receiver((c) => ({ status: c.n % 3 === 0 ? 200 : 500 }));
    const a = await workbench(dir);
    const b = await workbench(dir);
    const { secret } = await createWebhook(a.server, store, { url: r.url, events: ['order.created'] });
    const events = Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).sim.trigger(store, 'order.created').event_id);
    await waitFor(() => {
      const rows = inStore(a.sim, store).content.deliveries as any[];
      return rows.length > 0 && rows.every((x) => x.status === 'succeeded' || x.status === 'failed') && events.every((e) => rows.some((x) => x.event_id === e && x.outcome === 'delivered' || x.event_id === e && x.outcome === 'failed' && x.attempt === deliveryRules.maxAttempts));
    }, 'all events settled');
    const ids = r.captured.map((c) => c.body.delivery_id);
    expect(new Set(ids).size).toBe(ids.length);
    const logged = (inStore(a.sim, store).content.deliveries as any[]).map((x) => x.delivery_id).sort();
    expect([...ids].sort()).toEqual(logged);
    await expectAllValid(r.captured, secret);
  });

  it('group commit: raised events are on disk before any answer says so, and in process once settled() resolves', async () => {
    const dir = await tempDir('simulator-');
    const store = 'group-store';
    const bench = await workbench(dir);
    const other = SimulatorStore.open(dir);
    defer(async () => other.close());
    // Over HTTP: the 202 is written only after the commit, so another connection finds the event at once.
    const replies = await Promise.all([1, 2, 3].map(() => call(bench.server.url, 'POST', `/__simulator/stores/${store}/events`, { event: 'order.created' })));
    for (const reply of replies) {
      expect(reply.status).toBe(202);
      expect(other.event(store, (reply.json as any).content.event_id, 0)).toBeDefined();
    }
    // In process: trigger() returns at once; the event is written with the rest of this turn's writes.
    const { event_id } = bench.sim.trigger(store, 'order.created');
    expect(other.event(store, event_id, 0)).toBeUndefined();
    await bench.sim.settled();
    expect(other.event(store, event_id, 0)).toBeDefined();
  });

  it('an attempt claimed by a sender that died is settled when its lease runs out, and retried', async () => {
    const dir = await tempDir('simulator-');
    const store = 'crash-store';
    const r = await receiver(() => ({ status: 200 }));
    const first = await workbench(dir);
    const { secret } = await createWebhook(first.server, store, { url: r.url, events: ['order.created'] });
    await first.close();

    // A "process" that claims the first attempt and dies before sending it.
    const boot = createSimulator({ dataDir: dir, timeScale: SCALE });
    const content = boot.trigger(store, 'order.created');
    // Closed before its first pump: the event is committed (group commit) and nobody has claimed it yet.
    await boot.close();
    const crashed = SimulatorStore.open(dir);
    const claims = crashed.claimDue(Date.now() + 1, 10, 'crashed-process', 50);
    crashed.close();
    expect(claims.map((c) => c.row.delivery_id)).toEqual([content.deliveries[0].delivery_id]);

    const second = await workbench(dir);
    const rows = await waitFor(async () => ((x) => x.length === 2 && x[1].status === 'succeeded' && x)(await deliveries(second.server, store)), 'retry after the lease');
    expect(rows[0]).toMatchObject({ status: 'failed', error_class: 'network_error', outcome: 'retry_scheduled' });
    expect(r.captured).toHaveLength(1);
    await expectAllValid(r.captured, secret);
  });
});
