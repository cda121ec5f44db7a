// issue 39 item 4: the transactional outbox under kill -9. The workbench CLI (a real child, --data-dir) with
// an `inventory.updated` subscription answers stock moves sent 8 at a time, and kills itself with SIGKILL
// the n-th time it reaches a point between a write and its delivery (workbench/store/crash-points.ts): a
// write and its event in the transaction but not committed; committed but not answered; attempts claimed
// but not sent; an attempt answered by the receiver but not recorded. Restarted without the hook, it must
// deliver every event of every write the store kept, acknowledged or not (at least once, by event id), hold
// no event without its write (one inventory.updated per kept move, no more), and keep every acknowledged move.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { hangGuard } from '../helpers/hang-guard.js';
import { mockCli, stopChild, type RunningMock } from '../helpers/mock-cli.js';
import { http } from '../sandbox/helpers.js';
import { CRASH_POINTS, type CrashPoint } from '../../workbench/store/crash-points.js';

const { defer, tempDir } = cleanupAfterEach();
const mock = mockCli();
const STORE = 'outbox-crash';
const PRODUCT = 'prd_7Q2K9X';
const VARIANT = 'var_4M8T2C';
const ADMIN = { authorization: 'Bearer crash-admin' };

function cli(dataDir: string, crashAt?: string): Promise<RunningMock> {
  const env = { ...process.env };
  if (crashAt) env.SFC_TEST_CRASH_AT = crashAt;
  else delete env.SFC_TEST_CRASH_AT;
  return mock.start(['--port', '0', '--quiet', '--data-dir', dataDir, '--time-scale', '0.001'], 'world and back office', { env });
}

/** A receiver that answers 200 and records every delivery's event id. */
async function receiver(): Promise<{ url: string; eventIds: string[] }> {
  const eventIds: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        eventIds.push(JSON.parse(body).event_id as string);
      } catch {
        // not a delivery
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, eventIds };
}

async function stock(url: string): Promise<number> {
  const r = await http(`${url}/__simulator/stores/${STORE}/world/products`);
  const variant = r.json.find((p: any) => p.id === PRODUCT).variants.find((v: any) => v.id === VARIANT);
  return variant.inventory.reduce((n: number, l: any) => n + l.stock_quantity, 0);
}

/** Every event the store holds, through the simulator's events list (outside the contract). */
async function storedEvents(url: string): Promise<Array<{ event_id: string; event: string }>> {
  const r = await http(`${url}/__simulator/stores/${STORE}/events?limit=1000`);
  expect(r.status, r.text).toBe(200);
  return r.json.content.events;
}

// Claims are batched (one per turn of the scheduler): the second batch is mid-stream.
const CASES: Array<[CrashPoint, number]> = CRASH_POINTS.map((point) => [point, point === 'attempts-claimed' ? 3 : 6]);

describe('issue 39 item 4: kill -9 between a write and its delivery (a transactional outbox)', () => {
  it.each(CASES)('killed at %s (the %i-th time): every kept write has its event delivered, no event without its write, every acknowledged write kept', async (point, nth) => {
    const data = await tempDir('outbox-crash-');
    const hook = await receiver();
    const setup = await cli(data);
    const created = await http(`${setup.url}/api/v1/${STORE}/admin/webhooks`, 'POST', { headers: ADMIN, body: { url: hook.url, events: ['inventory.updated'] } });
    expect(created.status, created.text).toBe(201);
    const base = await stock(setup.url);
    await stopChild(setup.child);

    const first = await cli(data, `${point}:${nth}`);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    const acknowledged: string[] = [];
    // Once the sender is up (its thread starts on the first attempt), so that the stream below is claimed and sent as it comes.
    const primed = await http(`${first.url}/__simulator/stores/${STORE}/inventory`, 'POST', { body: { product_id: PRODUCT, variant_id: VARIANT, adjust: 1 } });
    expect(primed.status, primed.text).toBe(200);
    acknowledged.push(primed.json.content.events[0].event_id);
    await expect.poll(() => hook.eventIds.length, { timeout: hangGuard(20_000) }).toBeGreaterThan(0);
    let dead = false;
    const move = async () => {
      while (!dead) {
        try {
          const r = await http(`${first.url}/__simulator/stores/${STORE}/inventory`, 'POST', { body: { product_id: PRODUCT, variant_id: VARIANT, adjust: 1 } });
          expect(r.status, r.text).toBe(200);
          acknowledged.push(...r.json.content.events.map((e: { event_id: string }) => e.event_id));
        } catch (e) {
          if ((e as Error).name === 'AssertionError') throw e;
          dead = true;
        }
        if (acknowledged.length >= 200) dead = true;
      }
    };
    await Promise.all(Array.from({ length: 8 }, move));
    // 200 moves and no kill: the point was never reached (the check below says so instead of waiting).
    if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGTERM');
    await exited;
    expect(first.child.signalCode, 'the crash point was never reached').toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThanOrEqual(1);

    const second = await cli(data);
    defer(() => stopChild(second.child));
    const kept = (await stock(second.url)) - base;
    // Every acknowledged move is kept; at most the 8 in flight at the kill are kept unacknowledged.
    expect(kept).toBeGreaterThanOrEqual(acknowledged.length);
    expect(kept).toBeLessThanOrEqual(acknowledged.length + 8);
    const events = (await storedEvents(second.url)).filter((e) => e.event === 'inventory.updated');
    // One event per kept write: no event without its write, no write without its event.
    expect(events).toHaveLength(kept);
    for (const id of acknowledged) expect(events.map((e) => e.event_id)).toContain(id);
    // Every one is delivered (at least once) after the restart: leases of attempts claimed by the dead process end, and they are retried.
    await expect
      .poll(() => events.filter((e) => !hook.eventIds.includes(e.event_id)).map((e) => e.event_id), { timeout: hangGuard(30_000), interval: 100 })
      .toEqual([]);
  }, hangGuard(90_000));
});
