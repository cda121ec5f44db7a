// kill -9 in the middle of retries: the workbench runs in a child process on a --data-dir, its subscriber
// fails every attempt, and the child is killed (SIGKILL, by its PID) while retries are being claimed, sent
// and recorded. A simulator restarted on the same directory loses no committed row, sends no attempt twice,
// settles the attempts the dead process had in flight when their lease runs out, and delivers every
// pending retry.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { createMockServer, type MockServer } from '../../workbench/adapters/node-http.js';
import { createSimulator } from '../../workbench/simulator/index.js';
import { call, createWebhook, deliveries, expectAllValid, startReceiver, waitFor } from './helpers.js';

const root = path.resolve(import.meta.dirname, '../..');
const { defer, tempDir } = cleanupAfterEach();


/** The workbench in a child process; resolves once it prints where it listens. */
async function child(dataDir: string): Promise<{ proc: ChildProcess; pid: number; server: MockServer }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/simulator/fixtures/workbench-child.ts'), dataDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  defer(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`workbench child exited (${code}) before listening: ${stderr}`)));
  });
  const { url, pid } = JSON.parse(line) as { url: string; pid: number };
  expect(pid).toBe(proc.pid);
  // The helpers only need the base URL of a MockServer.
  return { proc, pid, server: { url } as MockServer };
}

const EVENTS = 10;

describe('kill -9 during retries', () => {
  it('a restart on the same --data-dir loses no committed row, sends nothing twice and delivers every pending retry', async () => {
    const dir = await tempDir('simulator-kill-');
    const store = 'kill-store';
    // Fails everything until the restart, then accepts: retries are being scheduled, claimed, sent and
    // recorded when the child dies.
    let accepting = false;
    const r = await startReceiver(() => ({ status: accepting ? 200 : 500 }));
    defer(() => r.close());

    const first = await child(dir);
    const a = await createWebhook(first.server, store, { url: `${r.url}/a`, events: ['order.created'] });
    const b = await createWebhook(first.server, store, { url: `${r.url}/b`, events: ['order.created'] });
    for (let i = 0; i < EVENTS; i++) {
      const raised = await call(first.server.url, 'POST', `/__simulator/stores/${store}/events`, { event: 'order.created' }, {});
      expect(raised.status, raised.text).toBeLessThan(300);
    }
    // Every first attempt has failed and the retries are under way (at 1/100 time: 50 ms, 300 ms, 3 s).
    // The kill must land while retries are pending: poll the log (state, not time) until a retry is
    // scheduled, so a loaded machine that sends in bursts cannot move the kill outside that window.
    const committed = await waitFor(
      async () =>
        r.captured.length >= 2 * EVENTS + 10 && ((rows) => rows.some((x) => x.status === 'scheduled' && x.attempt > 1) && rows)(await deliveries(first.server, store)),
      'retries under way, one of them scheduled',
    );
    const sentBeforeKill = r.captured.length;
    process.kill(first.pid, 'SIGKILL');
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => first.proc.once('exit', (c, s) => resolve([c, s])));
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
    expect(committed.some((x) => x.status === 'scheduled' && x.attempt > 1), 'retries were pending at the kill').toBe(true);
    expect(r.captured.length).toBeGreaterThanOrEqual(sentBeforeKill);
    for (const f of readdirSync(dir)) expect((statSync(path.join(dir, f)).mode & 0o777).toString(8), f).toBe('600');

    // Restart on the same directory (in this process) and let the subscriber accept.
    accepting = true;
    const sim = createSimulator({ dataDir: dir, timeScale: 0.01 });
    const server = await createMockServer({ port: 0, quiet: true, extensions: [sim.extension] });
    defer(async () => {
      await server.close();
      await sim.close();
    });
    const pairs = (rows: any[]) => new Set(rows.filter((x) => x.outcome === 'delivered').map((x) => `${x.webhook_id} ${x.event_id}`));
    const after = await waitFor(async () => ((x) => pairs(x).size === 2 * EVENTS && x)(await deliveries(server, store)), 'every event delivered to both', 30_000);

    // No committed row lost: every row seen before the kill is still there, under the same id; a finished
    // one is unchanged.
    const byId = new Map(after.map((x) => [x.delivery_id, x]));
    for (const row of committed) {
      const now = byId.get(row.delivery_id);
      expect(now, `row ${row.delivery_id} (${row.status}) after the restart`).toBeDefined();
      if (row.status === 'succeeded' || row.status === 'failed') expect(now).toEqual(row);
    }
    // Claimed before sent: every request the subscriber saw, from either process, is a row of the log...
    const captured = r.captured.map((c) => c.body.delivery_id as string);
    for (const id of captured) expect(byId.has(id), `captured ${id} is logged`).toBe(true);
    // ...and none was sent twice; each event reached each subscription exactly once with a 2XX.
    expect(new Set(captured).size).toBe(captured.length);
    expect(after.filter((x) => x.outcome === 'delivered')).toHaveLength(2 * EVENTS);
    await expectAllValid(r.captured.filter((c) => c.path === '/hook/a'), a.secret);
    await expectAllValid(r.captured.filter((c) => c.path === '/hook/b'), b.secret);
  });
});
