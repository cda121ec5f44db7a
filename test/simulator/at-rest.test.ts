// Secrets at rest: the Admin API shows a signing secret once (create, rotate-secret); after a rotation or a
// delete the old one must not stay readable in any file of --data-dir (database, -wal, -shm, -journal),
// and those files are the owner's alone (0600; a data directory the simulator creates is 0700).
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { admin, createWebhook, deliveries, expectAllValid, startReceiver, startWorkbench, waitFor, type Receiver } from './helpers.js';

const { defer, tempDir } = cleanupAfterEach();


async function receiver(): Promise<Receiver> {
  const r = await startReceiver(() => ({ status: 200 }));
  defer(() => r.close());
  return r;
}

async function workbench(dataDir: string) {
  const bench = await startWorkbench({ dataDir, timeScale: 0.01 });
  defer(bench.close);
  return bench;
}

/** The files of `dir` (one level) that contain `needle` anywhere in their raw bytes. */
function filesHolding(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return readdirSync(dir).filter((f) => statSync(path.join(dir, f)).isFile() && readFileSync(path.join(dir, f)).includes(bytes));
}

function modes(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, (statSync(path.join(dir, f)).mode & 0o777).toString(8)]));
}

describe('secrets at rest', () => {
  it('after rotate-secret and delete, no file of the data directory holds the old secrets or deleted header values', async () => {
    const dir = await tempDir('simulator-at-rest-');
    const store = 'at-rest-store';
    const r = await receiver();
    const wb = await workbench(dir);
    const headerValue = `tenant-token-${'q'.repeat(24)}`;
    const a = await createWebhook(wb.server, store, { url: r.url, events: ['order.created'] });
    const b = await createWebhook(wb.server, store, { url: r.url, events: ['order.created'], custom_headers: { 'X-Tenant-Token': headerValue } });
    const c = await createWebhook(wb.server, store, { url: r.url, events: ['order.created'] });
    // Deliver with every secret once, so they have been read, signed with and written around.
    wb.sim.trigger(store, 'order.created');
    await waitFor(async () => (await deliveries(wb.server, store)).filter((x) => x.status === 'succeeded').length === 3, 'three deliveries');
    // The scan finds what is there: before anything is rotated or deleted, every secret is on disk.
    for (const s of [a.secret, b.secret, c.secret, headerValue]) expect(filesHolding(dir, s), 'the scan sees live secrets').not.toEqual([]);

    // A first rotation (of c) brings every committed page into the database file itself, so the secrets of
    // a and b are now in its pages: what follows must wipe them there, not only drop WAL frames.
    const c2 = (await admin(wb.server, 'rotateWebhookSecret', 'POST', store, `/webhooks/${c.id}/rotate-secret`)).json.content.secret as string;
    expect(filesHolding(dir, c.secret)).toEqual([]);
    expect(filesHolding(dir, a.secret)).toContain('workbench.sqlite');

    const rotated = await admin(wb.server, 'rotateWebhookSecret', 'POST', store, `/webhooks/${a.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const a2 = rotated.json.content.secret as string;
    const removed = await admin(wb.server, 'deleteWebhook', 'DELETE', store, `/webhooks/${b.id}`);
    expect(removed.status).toBe(200);

    expect(filesHolding(dir, a.secret), 'rotated secret, data directory open').toEqual([]);
    expect(filesHolding(dir, b.secret), 'deleted secret, data directory open').toEqual([]);
    expect(filesHolding(dir, headerValue), 'deleted custom header value, data directory open').toEqual([]);
    expect(filesHolding(dir, c.secret)).toEqual([]);
    // The current secrets are still stored (the scan is not blind); they sign (checked after the restart).
    expect(filesHolding(dir, a2)).not.toEqual([]);
    expect(filesHolding(dir, c2)).not.toEqual([]);

    await wb.close();
    for (const s of [a.secret, b.secret, c.secret, headerValue]) expect(filesHolding(dir, s), 'after close').toEqual([]);

    // Reopened on the same directory: the subscriptions and current secrets are intact.
    const again = await workbench(dir);
    const start = r.captured.length;
    again.sim.trigger(store, 'order.created');
    await waitFor(() => r.captured.length === start + 2, 'deliveries after the restart');
    const sent = r.captured.slice(start);
    const bySub = new Map((await deliveries(again.server, store)).map((x) => [x.delivery_id, x.webhook_id]));
    await expectAllValid(sent.filter((x) => bySub.get(x.body.delivery_id) === a.id), a2);
    await expectAllValid(sent.filter((x) => bySub.get(x.body.delivery_id) === c.id), c2);
    expect(sent.map((x) => bySub.get(x.body.delivery_id)).sort()).toEqual([a.id, c.id].sort());
    await again.close();
    for (const s of [a.secret, b.secret, c.secret, headerValue]) expect(filesHolding(dir, s), 'after the second run').toEqual([]);
  });

  it('data files are 0600 inside an existing directory, older loose files are tightened, a created directory is 0700', async () => {
    const parent = await tempDir('simulator-at-rest-');
    // An existing, world-readable directory with a database file left 0644 by an older version (0.2.x's
    // simulator.sqlite, which the upgrade takes over as workbench.sqlite).
    const existing = path.join(parent, 'existing');
    const created = path.join(parent, 'new', 'nested');
    mkdirSync(existing, { mode: 0o755 });
    chmodSync(existing, 0o755);
    writeFileSync(path.join(existing, 'simulator.sqlite'), '', { mode: 0o644 });
    chmodSync(path.join(existing, 'simulator.sqlite'), 0o644);

    const r = await receiver();
    for (const dir of [existing, created]) {
      const wb = await workbench(dir);
      const { secret } = await createWebhook(wb.server, 'modes-store', { url: r.url, events: ['order.created'] });
      wb.sim.trigger('modes-store', 'order.created');
      await waitFor(async () => (await deliveries(wb.server, 'modes-store')).at(-1)?.status === 'succeeded', 'a delivery');
      await expectAllValid(r.captured.slice(-1), secret);
      // While open: the database and SQLite's own files beside it.
      const open = modes(dir);
      expect(Object.keys(open)).toEqual(expect.arrayContaining(['workbench.sqlite', 'workbench.sqlite-wal', 'workbench.sqlite-shm']));
      expect(Object.keys(open)).not.toContain('simulator.sqlite');
      for (const [file, mode] of Object.entries(open)) expect(mode, `${file} while open`).toBe('600');
      await wb.close();
      for (const [file, mode] of Object.entries(modes(dir))) expect(mode, `${file} after close`).toBe('600');
    }
    expect((statSync(created).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(path.dirname(created)).mode & 0o777).toString(8)).toBe('700');
    // An existing directory is the user's: left as it was.
    expect((statSync(existing).mode & 0o777).toString(8)).toBe('755');
  });
});
