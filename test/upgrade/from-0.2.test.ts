// issue 39 item 4: a data directory written by the release before (0.2.0, commit ff18c79, by
// fixtures/write-0.2-data-dir.mts.txt: a journal tail and snapshot, identities, clocks.json, simulator.sqlite
// with a subscription, failed first attempts and their retries scheduled) is taken into workbench.sqlite on
// the first start, once, with one line saying so: the same world (each resource's bytes as 0.2.0 served
// them), the same token, clock, subscription and delivery log, and the scheduled retries still scheduled,
// then sent when due. A second start upgrades nothing; processes starting at once upgrade once.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { hangGuard } from '../helpers/hang-guard.js';
import { closeOnce } from '../helpers/close-once.js';
import { storeRows } from '../helpers/store-files.js';
import { call, http, startSandbox } from '../sandbox/helpers.js';
import { openDatabase } from '../../workbench/store/sqlite.js';
import { DataDirRefused } from '../../workbench/store/database.js';
import { dayOf } from '../../workbench/clock/clocks.js';
import type { Workbench } from '../../workbench/index.js';

const { defer, tempDir } = cleanupAfterEach();
const FIXTURE = path.join(import.meta.dirname, 'fixtures/data-dir-0.2');
const expected = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/expected-0.2.json'), 'utf8'));
const STORE = 'upgrade-store';
/** The day the fixture was written: the seeded world is dated from it, as it was then. */
const ANCHOR = dayOf(Date.parse('2026-11-29T12:00:00Z'));

type Attempt = { delivery_id: string; event_id: string; status: string; scheduled_at: number; attempt: number };
const ATTEMPTS = `SELECT delivery_id, event_id, status, scheduled_at, attempt FROM attempts ORDER BY seq`;

/** Read from the copy: opening the committed fixture itself would leave its -wal and -shm beside it. */
function fixtureAttempts(copy: string): Attempt[] {
  const db = openDatabase(path.join(copy, 'simulator.sqlite'));
  try {
    return db.prepare(ATTEMPTS).all() as Attempt[];
  } finally {
    db.close();
  }
}

async function start(dir: string, notes: string[] = []): Promise<Workbench> {
  const wb = await startSandbox({ sandbox: { dataDir: dir, anchor: ANCHOR, log: (l) => notes.push(l) }, webhooks: { dataDir: dir, timeScale: 0.001 } });
  closeOnce(wb);
  defer(() => wb.close());
  return wb;
}

const sha = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

describe('issue 39 item 4: upgrading a data directory of 0.2.0', () => {
  it('gives the same world, token, clock, subscription and deliveries, once, with one line; the old files kept aside', async () => {
    const dir = await tempDir('upgrade-');
    cpSync(FIXTURE, dir, { recursive: true });
    const before = fixtureAttempts(dir);
    expect(before.filter((a) => a.status === 'scheduled').length, 'the fixture holds pending retries').toBeGreaterThan(0);

    const notes: string[] = [];
    const wb = await start(dir, notes);
    const upgraded = notes.filter((l) => l.includes('upgraded the data directory'));
    expect(upgraded).toHaveLength(1);
    expect(upgraded[0]).toMatch(/from 0\.2\.x into workbench\.sqlite: simulator\.sqlite \(renamed workbench\.sqlite\); the sandbox's journal \(1 store with writes, 1 identity\); clocks\.json; the old files are in .*0\.2-files/);
    expect(readdirSync(dir).filter((f) => !f.startsWith('workbench.sqlite')).sort()).toEqual(['0.2-files', 'workbench.lock']);
    expect(readdirSync(path.join(dir, '0.2-files')).sort()).toEqual(['clocks.json', 'sandbox.jsonl', 'sandbox.snapshot.jsonl']);

    // The world, resource by resource, as 0.2.0 served it.
    for (const resource of ['products', 'customers', 'carts', 'orders']) {
      const served = JSON.parse((await http(`${wb.url}/__simulator/stores/${STORE}/world/${resource}`)).text.replaceAll(wb.url, 'ORIGIN'));
      expect(sha(served), resource).toBe(expected.worldSha256[resource]);
    }
    // The token issued by 0.2.0 still opens the store (its identity was taken in), as its customer's.
    const auth = { authorization: `Bearer ${expected.token}` };
    expect((await call(wb, 'listCustomerCards', 'GET', `/customers/${expected.customer}/cards`, { headers: auth, store: STORE })).status).toBe(200);
    // The clock, frozen where 0.2.0 left it.
    const clock = (await http(`${wb.url}/__simulator/stores/${STORE}/clock`)).json.content;
    expect(clock).toMatchObject({ frozen: true, now: new Date(JSON.parse(readFileSync(path.join(dir, '0.2-files/clocks.json'), 'utf8')).clocks[STORE].at).toISOString() });
    // The subscription and the delivery log, row for row; the scheduled retries still scheduled.
    const listed = await http(`${wb.url}/api/v1/${STORE}/admin/webhooks`, 'GET', { headers: { authorization: 'Bearer any' } });
    expect(listed.json.content.webhooks.map((w: { id: string }) => w.id)).toEqual([expected.webhook]);
    expect(storeRows<Attempt>(dir, ATTEMPTS)).toEqual(before);

    // The retries, sent when due: the store's clock moved on, each scheduled one is attempted (its receiver
    // of 0.2.0 is gone: refused, so each is recorded as failed and the ladder goes on).
    expect((await http(`${wb.url}/__simulator/stores/${STORE}/clock`, 'POST', { body: { advance: 'PT1H' } })).status).toBeLessThan(300);
    const pending = before.filter((a) => a.status === 'scheduled').map((a) => a.delivery_id);
    const statusOf = () => new Map(storeRows<Attempt>(dir, ATTEMPTS).map((a) => [a.delivery_id, a.status]));
    await expect.poll(() => pending.filter((id) => statusOf().get(id) === 'scheduled'), { timeout: hangGuard(20_000) }).toEqual([]);
    expect(pending.map((id) => statusOf().get(id))).toEqual(pending.map(() => 'failed'));
    await wb.close();

    // A second start upgrades nothing.
    const again: string[] = [];
    await (await start(dir, again)).close();
    expect(again.filter((l) => l.includes('upgraded'))).toEqual([]);
    expect(existsSync(path.join(dir, 'simulator.sqlite'))).toBe(false);
  }, hangGuard(90_000));

  it('three workbenches starting at once on one 0.2.0 directory: it is upgraded once, one serves it, the others are refused in one line', async () => {
    const dir = await tempDir('upgrade-race-');
    cpSync(FIXTURE, dir, { recursive: true });
    const notes: string[][] = [[], [], []];
    const started = await Promise.allSettled(notes.map((n) => start(dir, n)));
    expect(started.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected', 'rejected']);
    for (const refused of started.filter((s): s is PromiseRejectedResult => s.status === 'rejected')) {
      expect(refused.reason).toBeInstanceOf(DataDirRefused);
      expect(String(refused.reason.message)).toMatch(/is served by another workbench \(pid \d+, this process\)/);
    }
    expect(notes.flat().filter((l) => l.includes('upgraded the data directory'))).toHaveLength(1);
    const wb = (started.find((s) => s.status === 'fulfilled') as PromiseFulfilledResult<Workbench>).value;
    const served = JSON.parse((await http(`${wb.url}/__simulator/stores/${STORE}/world/products`)).text.replaceAll(wb.url, 'ORIGIN'));
    expect(sha(served)).toBe(expected.worldSha256.products);
  }, hangGuard(90_000));
});
