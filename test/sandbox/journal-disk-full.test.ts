// A full disk (ENOSPC) never loses an acknowledged write nor leaves a corrupt file. In process, with the
// journal's write function injected to fail: a compaction that cannot write its snapshot or its new tail
// leaves both files byte for byte as they were and no .tmp behind, and the journal goes on appending; an
// append that fails half-way is cut back. On a real full disk (a small tmpfs, where this runs as root): a
// write the disk refuses is answered 503 `service_unavailable` with Retry-After (the envelope the
// pipeline adds for server conditions), compactions that fail are retried once there is room again, and
// every acknowledged write is there after a restart.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statfsSync, writeFileSync, writeSync as execWrite } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { Journal, JournalWriteError, type Entry } from '../../workbench/sandbox/journal.js';
import { backOffice, http, startSandbox } from './helpers.js';

const { defer, tempDir } = cleanupAfterEach();

const lot = (n: number) => ({ lot_batch: 'LOT-1', manufacturer: 'Test', mfg_date: '2026-01-01', exp_date: '2028-01-01', stock_quantity: n });
const move = (store: string, n: number): Entry => ({ v: 2, store, at: '2026-01-01T00:00:00Z', op: 'put', puts: [{ kind: 'stock', product_id: 'prd_1', variant_id: 'var_1', inventory: [lot(n)] }] });
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('ENOSPC, injected', () => {
  it('a compaction that cannot write leaves the journal as it was, and is tried again later', async () => {
    const data = await tempDir('disk-full-');
    let room = Infinity;
    const write = (fd: number, buffer: Buffer, offset: number, length: number) => {
      if (length > room) throw enospc();
      room -= length;
      return execWrite(fd, buffer, offset, length);
    };
    const notes: string[] = [];
    const journal = Journal.open(data, { compactEntries: 10, write, log: (l) => notes.push(l) });
    for (let i = 0; i < 10; i++) journal.append(move(`s${i % 3}`, i));
    const first = journal.compact([]);
    expect(first).toBeDefined();
    for (let i = 10; i < 20; i++) journal.append(move(`s${i % 3}`, i));
    const files = () => readdirSync(data).sort().map((f) => [f, readFileSync(path.join(data, f), 'utf8')]);
    // Room for part of the snapshot only, then for the snapshot but not the new tail.
    for (const budget of [40, 600]) {
      const before = files();
      room = budget;
      expect(journal.due).toBe(true);
      expect(journal.compact([])).toBeUndefined();
      expect(files()).toEqual(before);
      expect(notes.at(-1)).toMatch(/compaction of .* failed \(ENOSPC: disk full\?\); the journal is as it was, nothing is lost/);
      // Not tried again at once: after a tenth of the threshold more writes.
      expect(journal.due).toBe(false);
      room = Infinity;
      journal.append(move('s0', 100 + budget));
      room = budget;
    }
    room = Infinity;
    expect(journal.due).toBe(true);
    expect(journal.compact([])).toBeDefined();
    journal.close();
    const again = Journal.open(data);
    try {
      expect(again.entriesOf('s0').flatMap((e) => (e.op === 'put' || e.op === 'state' ? e.puts : []))).toEqual([expect.objectContaining({ inventory: [lot(700)] })]);
      expect(again.entriesOf('s1')).toHaveLength(1);
    } finally {
      again.close();
    }
  });

  it('an append that fails half-way is cut back and refused; the next one lands on a clean line', async () => {
    const data = await tempDir('disk-full-');
    let fail = false;
    const write = (fd: number, buffer: Buffer, offset: number, length: number) => {
      if (fail && length > 10) return execWrite(fd, buffer, offset, 10);
      if (fail) throw enospc();
      return execWrite(fd, buffer, offset, length);
    };
    const journal = Journal.open(data, { write });
    journal.append(move('s', 1));
    const good = readFileSync(path.join(data, 'sandbox.jsonl'), 'utf8');
    fail = true;
    expect(() => journal.append(move('s', 2))).toThrow(JournalWriteError);
    expect(readFileSync(path.join(data, 'sandbox.jsonl'), 'utf8')).toBe(good);
    fail = false;
    journal.append(move('s', 3));
    journal.close();
    const again = Journal.open(data);
    expect(again.entriesOf('s')).toHaveLength(2);
    again.close();
  });
});

/** A tmpfs of `kb` KB mounted on a new directory, or undefined when this process may not mount one. */
function smallDisk(kb: number): string | undefined {
  if (os.platform() !== 'linux' || process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k,mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  defer(() => {
    execFileSync('umount', [dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Whether a tmpfs can be mounted here (root on Linux); tried for real in the test. */
const CAN_MOUNT = os.platform() === 'linux' && process.getuid?.() === 0;

describe('ENOSPC, a real full disk (tmpfs)', () => {
  it.skipIf(!CAN_MOUNT)('a refused write is a 503 with the envelope; compaction waits for room; every acknowledged write survives a restart', async () => {
    const DISK = smallDisk(256);
    expect(DISK, 'mount -t tmpfs failed (as root)').toBeDefined();
    const data = path.join(DISK!, 'data');
    const notes: string[] = [];
    const open = () => startSandbox({ webhooks: false, sandbox: { dataDir: data, compactEntries: 5, log: (l) => notes.push(l) } });
    const wb = await open();
    const products = async (w: typeof wb) => (await http(`${backOffice(w)}/world/products`)).json;
    const stockOf = async (w: typeof wb) => (await products(w)).find((p: any) => p.id === 'prd_7Q2K9X').variants[0].inventory.reduce((n: number, l: any) => n + l.stock_quantity, 0);
    const base = await stockOf(wb);
    const variant = (await products(wb)).find((p: any) => p.id === 'prd_7Q2K9X').variants[0].id;
    // A renamed product makes the snapshot larger than the room left for it.
    expect((await http(`${backOffice(wb)}/products/prd_7Q2K9X`, 'PATCH', { body: { name: 'Full Disk Lipstick' } })).status).toBe(200);
    const { bavail, bsize } = statfsSync(DISK!);
    writeFileSync(path.join(DISK!, 'filler'), Buffer.alloc(Math.max(0, bavail * bsize - 12 * 1024)));
    let acknowledged = 0;
    let refused: Awaited<ReturnType<typeof http>> | undefined;
    for (let i = 0; i < 400 && !refused; i++) {
      const r = await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: 'prd_7Q2K9X', variant_id: variant, adjust: 1 } });
      if (r.status === 200) acknowledged++;
      else refused = r;
    }
    expect(refused, 'the disk never filled').toBeDefined();
    expect(refused!.status).toBe(503);
    expect(refused!.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused!.json).toMatchObject({ success: false, content: { error: { code: 'service_unavailable' } } });
    expect(refused!.json.message).toMatch(/ENOSPC/);
    expect(notes.join('\n')).toMatch(/compaction of .* failed \(ENOSPC/);
    expect(readdirSync(data).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Room again: writes are taken, and the waiting compaction runs.
    rmSync(path.join(DISK!, 'filler'));
    for (let i = 0; i < 10; i++) {
      expect((await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: 'prd_7Q2K9X', variant_id: variant, adjust: 1 } })).status).toBe(200);
      acknowledged++;
    }
    expect(wb.sandbox!.sandbox.journal.compactions).toBeGreaterThan(0);
    await wb.close();
    const again = await open();
    try {
      expect(await stockOf(again)).toBe(base + acknowledged);
      expect((await products(again)).find((p: any) => p.id === 'prd_7Q2K9X').name).toBe('Full Disk Lipstick');
    } finally {
      await again.close();
    }
    expect(existsSync(path.join(data, 'sandbox.snapshot.jsonl'))).toBe(true);
  }, 60_000);
});
