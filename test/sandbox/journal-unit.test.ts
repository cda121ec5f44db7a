// issue 38: the journal (workbench/sandbox/journal.ts) driven through its own API on temporary folders, in
// process and fast, so that each of its behaviours is pinned by a test that imports nothing else: the
// in-memory journal and its fold, the files' modes, the compaction thresholds (both sides of each), what a
// compaction writes and where it stops, each way an append or a compaction can fail, every message a file
// the sandbox did not write stops the start with, and the progress lines of a long start.
import { closeSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, truncateSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { Fold, Journal, JournalReadError, JournalWriteError, withInventory, type CompactionPoint, type Entry, type JournalOptions, type Put } from '../../workbench/sandbox/journal.js';
import type { CartRecord, CustomerRecord, Identity, OrderRecord, ProductRecord } from '../../workbench/sandbox/types.js';

const { tempDir } = cleanupAfterEach();
afterEach(() => {
  vi.useRealTimers();
});

const AT = '2026-01-01T00:00:00Z';
const lot = (n: number) => ({ lot_batch: 'LOT-1', manufacturer: 'Test', mfg_date: '2026-01-01', exp_date: '2028-01-01', stock_quantity: n });
const stock = (n: number, variant = 'var_1', product = 'prd_1'): Put => ({ kind: 'stock', product_id: product, variant_id: variant, inventory: [lot(n)] });
const move = (store: string, n: number, variant = 'var_1'): Entry => ({ v: 2, store, at: AT, op: 'put', puts: [stock(n, variant)] });
const line = (e: unknown) => `${JSON.stringify(e)}\n`;
const identity = (store: string, digit: string): Identity => ({ store_id: store, user: { id: `usr_${digit}` } as Identity['user'], access_token_sha256: digit.repeat(64), refresh_token_sha256: 'f'.repeat(64) });
const product = (id: string, variants: string[]): ProductRecord => ({ id, name: id, variants: variants.map((v) => ({ id: v, inventory: [lot(0)], stock_available: false })) }) as unknown as ProductRecord;
const customer = (id: string, extra: Record<string, unknown> = {}): CustomerRecord => ({ id, ...extra }) as unknown as CustomerRecord;
const cart = (id: string, note = ''): CartRecord => ({ id, note }) as unknown as CartRecord;
const order = (n: string): OrderRecord => ({ order_number: n }) as unknown as OrderRecord;
const put = (store: string, ...puts: Put[]): Entry => ({ v: 2, store, at: AT, op: 'put', puts });
const quantities = (j: Journal, store: string) => j.entriesOf(store).flatMap((e) => (e.op === 'put' || e.op === 'state' ? e.puts : [])).map((p) => (p.kind === 'stock' ? p.inventory[0].stock_quantity : -1));
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
const tailOf = (d: string) => path.join(d, 'sandbox.jsonl');
const snapshotOf = (d: string) => path.join(d, 'sandbox.snapshot.jsonl');
const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** Opens, runs `fn`, closes. */
async function withJournal<T>(dir: string, options: JournalOptions, fn: (j: Journal) => T): Promise<T> {
  const j = Journal.open(dir, options);
  try {
    return fn(j);
  } finally {
    j.close();
  }
}

describe('issue 38: the in-memory journal', () => {
  it('keeps each store\'s writes, forgets them at a reset, ignores identities, and is never due', () => {
    const j = Journal.inMemory();
    expect(j.persistent).toBe(false);
    expect(j.location).toBe(':memory:');
    expect(j.hasWrites('s')).toBe(false);
    expect(j.entriesOf('s')).toEqual([]);
    j.append(move('s', 1));
    j.append({ v: 2, store: 't', at: AT, op: 'identity', identity: identity('t', 'a') });
    expect(j.hasWrites('s')).toBe(true);
    expect(j.hasWrites('t')).toBe(false);
    expect(j.identities).toEqual([]);
    expect(j.entriesOf('s')).toEqual([move('s', 1)]);
    for (let i = 0; i < 300; i++) j.append(move('s', i));
    expect(j.due).toBe(false);
    expect(j.compact([])).toBeUndefined();
    j.append({ v: 2, store: 's', at: AT, op: 'reset' });
    expect(j.hasWrites('s')).toBe(false);
    expect(j.entriesOf('s')).toEqual([]);
    j.close();
  });

  it('folds a store\'s entries into state lines of 256 puts each every 256 entries', () => {
    const j = Journal.inMemory();
    for (let i = 0; i < 255; i++) j.append(move('s', i, `var_${i}`));
    expect(j.entriesOf('s')).toHaveLength(255);
    j.append({ ...move('s', 255, 'var_255'), at: '2026-02-02T00:00:00Z' });
    const once = j.entriesOf('s');
    expect(once).toHaveLength(1);
    expect(once[0]).toMatchObject({ v: 2, store: 's', at: '2026-02-02T00:00:00Z', op: 'state', changes: 256 });
    expect((once[0] as { puts: Put[] }).puts).toHaveLength(256);
    j.append(move('s', 256, 'var_256'));
    expect(j.entriesOf('s').map((e) => e.op)).toEqual(['state', 'put']);
    for (let i = 257; i < 511; i++) j.append(move('s', i, `var_${i}`));
    const twice = j.entriesOf('s');
    expect(twice.map((e) => [e.op, (e as { changes: number }).changes, (e as { puts: Put[] }).puts.length])).toEqual([
      ['state', 511, 256],
      ['state', 511, 255],
    ]);
    expect(quantities(j, 's')).toEqual(Array.from({ length: 511 }, (_, i) => i));
  });
});

describe('issue 38: the files of a data dir', () => {
  it('a new data dir is 0700, its journal 0600; a wider journal or snapshot from an older run is narrowed', async () => {
    const d = path.join(await tempDir('unit-'), 'a', 'b');
    await withJournal(d, {}, (j) => {
      expect(j.persistent).toBe(true);
      expect(j.location).toBe(tailOf(d));
      j.append(move('s', 1));
      j.compact([]);
    });
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(statSync(tailOf(d)).mode & 0o777).toBe(0o600);
    expect(statSync(snapshotOf(d)).mode & 0o777).toBe(0o600);
    const { chmodSync } = await import('node:fs');
    chmodSync(tailOf(d), 0o644);
    chmodSync(snapshotOf(d), 0o640);
    await withJournal(d, {}, (j) => expect(quantities(j, 's')).toEqual([1]));
    expect(statSync(tailOf(d)).mode & 0o777).toBe(0o600);
    expect(statSync(snapshotOf(d)).mode & 0o777).toBe(0o600);
  });

  it('counts the tail\'s entries and bytes, reads identities back, and a reset forgets the store\'s writes', async () => {
    const d = await tempDir('unit-');
    await withJournal(d, {}, (j) => {
      expect(j.stats).toEqual({ tailEntries: 0, tailBytes: 0, snapshotBytes: 0, generation: 0 });
      j.append(move('s', 1));
      j.append({ v: 2, store: 'u', at: AT, op: 'identity', identity: identity('u', 'a') });
      j.append(move('t', 2));
      j.append({ v: 2, store: 't', at: AT, op: 'reset' });
      expect(j.stats).toEqual({ tailEntries: 4, tailBytes: statSync(tailOf(d)).size, snapshotBytes: 0, generation: 0 });
      expect(j.hasWrites('s')).toBe(true);
      expect(j.hasWrites('t')).toBe(false);
      expect(j.hasWrites('u')).toBe(false);
      expect(j.entriesOf('t')).toEqual([]);
      expect(j.identities).toEqual([]);
    });
    await withJournal(d, {}, (j) => {
      expect(j.identities).toEqual([identity('u', 'a')]);
      expect(j.stats.tailEntries).toBe(4);
      expect(j.stats.tailBytes).toBe(statSync(tailOf(d)).size);
      expect(j.hasWrites('t')).toBe(false);
      expect(j.hasWrites('u')).toBe(false);
      expect(j.entriesOf('s')).toEqual([move('s', 1)]);
    });
  });
});

describe('issue 38: when a compaction is due', () => {
  it('at the entry threshold, not one before; a threshold under 1 counts as 1', async () => {
    const d = await tempDir('unit-');
    await withJournal(d, { compactEntries: 3, compactBytes: 1e9 }, (j) => {
      j.append(move('s', 1));
      j.append(move('s', 2));
      expect(j.due).toBe(false);
      j.append(move('s', 3));
      expect(j.due).toBe(true);
    });
    const e = await tempDir('unit-');
    await withJournal(e, { compactEntries: 0, compactBytes: 0 }, (j) => {
      expect(j.due).toBe(false);
      j.append(move('s', 1));
      expect(j.due).toBe(true);
    });
  });

  it('at the byte threshold, not one byte before', async () => {
    const one = Buffer.byteLength(line(move('s', 1)));
    const d = await tempDir('unit-');
    await withJournal(d, { compactEntries: 1000, compactBytes: 2 * one }, (j) => {
      j.append(move('s', 1));
      expect(j.due).toBe(false);
      j.append(move('s', 2));
      expect(j.stats.tailBytes).toBe(2 * one);
      expect(j.due).toBe(true);
    });
    const e = await tempDir('unit-');
    await withJournal(e, { compactEntries: 1000, compactBytes: 2 * one + 1 }, (j) => {
      j.append(move('s', 1));
      j.append(move('s', 2));
      expect(j.due).toBe(false);
    });
  });

  it('after a failed compaction: not again before a tenth of the entry threshold more, or of the byte threshold', async () => {
    let fail = false;
    const write = (fd: number, b: Buffer, o: number, l: number) => {
      if (fail) throw enospc();
      return writeSync(fd, b, o, l);
    };
    const d = await tempDir('unit-');
    const notes: string[] = [];
    await withJournal(d, { compactEntries: 20, compactBytes: 1e9, write, log: (l) => notes.push(l) }, (j) => {
      for (let i = 0; i < 20; i++) j.append(move('s', i));
      fail = true;
      expect(j.compact([])).toBeUndefined();
      fail = false;
      expect(j.due).toBe(false);
      j.append(move('s', 20));
      expect(j.due).toBe(false);
      j.append(move('s', 21));
      expect(j.due).toBe(true);
      expect(j.compact([])).toMatchObject({ stores: 1 });
      // A success clears the wait: at the threshold again, due at once.
      for (let i = 0; i < 20; i++) j.append(move('s', 100 + i));
      expect(j.due).toBe(true);
    });
    expect(notes).toHaveLength(1);
    const one = Buffer.byteLength(line(move('s', 10)));
    const e = await tempDir('unit-');
    await withJournal(e, { compactEntries: 1000, compactBytes: 20 * one, write, log: () => {} }, (j) => {
      for (let i = 10; i < 30; i++) j.append(move('s', i));
      fail = true;
      expect(j.compact([])).toBeUndefined();
      fail = false;
      j.append(move('s', 30));
      expect(j.due).toBe(false);
      j.append(move('s', 31));
      expect(j.due).toBe(true);
    });
  });
});

describe('issue 38: what a compaction writes', () => {
  it('a header, each identity once, each store\'s folded state, an end line with the count; an empty tail of the next generation', async () => {
    const d = await tempDir('unit-');
    const points: CompactionPoint[] = [];
    await withJournal(d, { at: (p) => points.push(p) }, (j) => {
      j.append(move('s', 1));
      j.append(move('s', 2));
      j.append(move('t', 3));
      const result = j.compact([identity('s', 'a'), identity('s', 'a'), identity('t', 'b')]);
      expect(result).toMatchObject({ stores: 2, lines: 4, snapshotBytes: statSync(snapshotOf(d)).size });
      expect(result!.ms).toBeGreaterThanOrEqual(0);
      expect(points).toEqual(['snapshot-partial', 'snapshot-written', 'tail-written', 'snapshot-renamed', 'tail-renamed']);
      expect(j.compactions).toBe(1);
      expect(j.stats).toEqual({ tailEntries: 0, tailBytes: statSync(tailOf(d)).size, snapshotBytes: statSync(snapshotOf(d)).size, generation: 1 });
      const snap = linesOf(snapshotOf(d));
      expect(snap.map((l) => l.op)).toEqual(['snapshot', 'identity', 'identity', 'state', 'state', 'end']);
      expect(snap[0]).toMatchObject({ v: 2, generation: 1 });
      expect(snap[1]).toMatchObject({ v: 2, store: 's', identity: identity('s', 'a') });
      expect(snap[2]).toMatchObject({ v: 2, store: 't', identity: identity('t', 'b') });
      expect(snap[3]).toMatchObject({ v: 2, store: 's', op: 'state', changes: 2, puts: [stock(2)] });
      expect(snap[5]).toEqual({ v: 2, op: 'end', generation: 1, lines: 4 });
      const tail = linesOf(tailOf(d));
      expect(tail).toEqual([{ v: 2, op: 'begin', generation: 1, at: snap[0].at }]);
      expect(existsSync(`${tailOf(d)}.tmp`) || existsSync(`${snapshotOf(d)}.tmp`)).toBe(false);
      // Read back from the new snapshot, in the order written.
      expect(quantities(j, 's')).toEqual([2]);
      j.append(move('s', 4));
      expect(quantities(j, 's')).toEqual([2, 4]);
      expect(j.stats.tailEntries).toBe(1);
    });
    await withJournal(d, {}, (j) => {
      expect(j.identities).toEqual([identity('s', 'a'), identity('t', 'b')]);
      expect(j.stats.generation).toBe(1);
      expect(j.stats.snapshotBytes).toBe(statSync(snapshotOf(d)).size);
      expect(quantities(j, 's')).toEqual([2, 4]);
      expect(quantities(j, 't')).toEqual([3]);
      expect(j.compact([])).toMatchObject({ stores: 2, lines: 2 });
      expect(j.stats.generation).toBe(2);
    });
  });

  it('a store with nothing new keeps its snapshot lines byte for byte; an empty journal compacts to header and end', async () => {
    const d = await tempDir('unit-');
    const points: CompactionPoint[] = [];
    await withJournal(d, { at: (p) => points.push(p) }, (j) => {
      expect(j.compact([])).toMatchObject({ stores: 0, lines: 0 });
      expect(points).not.toContain('snapshot-partial');
      expect(linesOf(snapshotOf(d)).map((l) => l.op)).toEqual(['snapshot', 'end']);
      j.append(move('s', 1));
      j.append(move('t', 2));
      j.compact([]);
      const first = readFileSync(snapshotOf(d), 'utf8').split('\n');
      j.append(move('t', 3));
      expect(j.compact([])).toMatchObject({ stores: 2, lines: 2 });
      const second = readFileSync(snapshotOf(d), 'utf8').split('\n');
      expect(second[1]).toBe(first[1]);
      expect(second[2]).not.toBe(first[2]);
      expect(quantities(j, 's')).toEqual([1]);
      expect(quantities(j, 't')).toEqual([3]);
      expect(j.compactions).toBe(3);
    });
  });

  it('a store reset since the last compaction is left out of the next snapshot', async () => {
    const d = await tempDir('unit-');
    await withJournal(d, {}, (j) => {
      j.append(move('s', 1));
      j.append(move('t', 1));
      j.compact([]);
      j.append({ v: 2, store: 's', at: AT, op: 'reset' });
      expect(j.compact([])).toMatchObject({ stores: 1, lines: 1 });
      expect(j.hasWrites('s')).toBe(false);
    });
  });
});

describe('issue 38: a compaction that fails leaves the journal as it was', () => {
  const files = (d: string) => readdirSync(d).sort().map((f) => [f, readFileSync(path.join(d, f), 'utf8')]);

  it.each([
    ['the snapshot cannot be written (ENOSPC)', 1, enospc, /compaction of .*sandbox\.jsonl failed \(ENOSPC: disk full\?\); the journal is as it was, nothing is lost; trying again after more writes$/],
    ['the new tail cannot be written (an error without a code)', 2, () => new Error('boom'), /compaction of .*sandbox\.jsonl failed \(boom\); the journal is as it was/],
  ])('%s', async (_name, failAt, error, note) => {
    const d = await tempDir('unit-');
    let writes = 0;
    let armed = false;
    const write = (fd: number, b: Buffer, o: number, l: number) => {
      if (armed && ++writes === failAt) throw error();
      return writeSync(fd, b, o, l);
    };
    const notes: string[] = [];
    await withJournal(d, { write, log: (l) => notes.push(l) }, (j) => {
      j.append(move('s', 1));
      j.compact([]);
      j.append(move('s', 2));
      const before = files(d);
      armed = true;
      expect(j.compact([])).toBeUndefined();
      armed = false;
      expect(files(d)).toEqual(before);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(note);
      if (failAt === 2) expect(notes[0]).not.toMatch(/disk full/);
      expect(j.compactions).toBe(1);
      expect(j.stats.generation).toBe(1);
      j.append(move('s', 3));
      expect(quantities(j, 's')).toEqual([1, 2, 3]);
    });
    await withJournal(d, {}, (j) => expect(quantities(j, 's')).toEqual([1, 2, 3]));
  });

  it('a new tail that cannot be put in place after the commit point: writes are refused until a restart, nothing is lost', async () => {
    const d = await tempDir('unit-');
    const notes: string[] = [];
    const at = (p: CompactionPoint) => {
      if (p === 'snapshot-renamed') unlinkSync(`${tailOf(d)}.tmp`);
    };
    await withJournal(d, { at, log: (l) => notes.push(l) }, (j) => {
      j.append(move('s', 1));
      j.append(move('s', 2));
      expect(j.compact([])).toBeUndefined();
      expect(j.refusing).toMatch(/sandbox\.jsonl: the compacted tail could not be put in place \(ENOENT\); writes are refused until the workbench restarts \(nothing acknowledged is lost\)$/);
      expect(notes).toEqual([`sandbox: ${j.refusing}`]);
      expect(j.compactions).toBe(0);
      expect(j.due).toBe(false);
      expect(() => j.append(move('s', 3))).toThrow(j.refusing);
      try {
        j.append(move('s', 3));
      } catch (e) {
        expect(e).toBeInstanceOf(JournalWriteError);
        expect((e as JournalWriteError).refusing).toBe(true);
      }
      expect(j.compact([])).toBeUndefined();
    });
    const notesAgain: string[] = [];
    await withJournal(d, { log: (l) => notesAgain.push(l) }, (j) => {
      expect(quantities(j, 's')).toEqual([2]);
      expect(j.notes.join('\n')).toMatch(/dropped sandbox\.jsonl of an earlier generation/);
      j.append(move('s', 4));
    });
    await withJournal(d, {}, (j) => expect(quantities(j, 's')).toEqual([2, 4]));
  });
});

describe('issue 38: an append that fails', () => {
  it('is cut back to the last good line and answered with why (with or without an error code)', async () => {
    const d = await tempDir('unit-');
    let fail: (() => Error) | undefined;
    const write = (fd: number, b: Buffer, o: number, l: number) => {
      if (fail && l > 10) return writeSync(fd, b, o, 10);
      if (fail) throw fail();
      return writeSync(fd, b, o, l);
    };
    await withJournal(d, { write }, (j) => {
      j.append(move('s', 1));
      const good = readFileSync(tailOf(d), 'utf8');
      for (const [error, why, errno] of [
        [enospc, 'ENOSPC', 'ENOSPC'],
        [() => new Error('boom'), 'boom', undefined],
      ] as const) {
        fail = error;
        let thrown: unknown;
        try {
          j.append(move('s', 2));
        } catch (e) {
          thrown = e;
        }
        fail = undefined;
        expect(thrown).toBeInstanceOf(JournalWriteError);
        expect((thrown as JournalWriteError).message).toBe(`${tailOf(d)}: the write could not be kept (${why}); nothing was changed`);
        expect((thrown as JournalWriteError).refusing).toBe(false);
        expect((thrown as JournalWriteError).errno).toBe(errno);
        expect(readFileSync(tailOf(d), 'utf8')).toBe(good);
        expect(j.stats).toMatchObject({ tailEntries: 1, tailBytes: good.length });
        expect(j.refusing).toBeUndefined();
      }
      j.append(move('s', 3));
      expect(quantities(j, 's')).toEqual([1, 3]);
    });
  });

  it('that cannot be cut back makes the journal refuse every later write until a restart', async () => {
    const d = await tempDir('unit-');
    const write = (fd: number) => {
      // The descriptor goes away under the journal, so the cut back fails too (EBADF).
      closeSync(fd);
      throw enospc();
    };
    // Not closed at the end: its descriptor is closed already (and its number may be another file's by then).
    const j = Journal.open(d, { write });
    let thrown: unknown;
    try {
      j.append(move('s', 1));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(JournalWriteError);
    const message = `${tailOf(d)}: the write could not be kept (ENOSPC), and the torn line could not be cut back (EBADF); writes are refused until the workbench restarts`;
    expect((thrown as JournalWriteError).message).toBe(message);
    expect((thrown as JournalWriteError).refusing).toBe(true);
    expect((thrown as JournalWriteError).errno).toBe('ENOSPC');
    expect(j.refusing).toBe(message);
    expect(j.due).toBe(false);
    expect(j.compact([])).toBeUndefined();
    expect(() => j.append(move('s', 2))).toThrow(message);
  });

  it('writes a line in as many pieces as the disk takes', async () => {
    const d = await tempDir('unit-');
    const write = (fd: number, b: Buffer, o: number, l: number) => writeSync(fd, b, o, Math.min(l, 7));
    await withJournal(d, { write, sync: false }, (j) => {
      j.append(move('s', 1));
      j.append(move('s', 2));
      expect(j.compact([identity('s', 'a')])).toMatchObject({ stores: 1, lines: 2 });
      j.append(move('s', 3));
    });
    await withJournal(d, {}, (j) => {
      expect(quantities(j, 's')).toEqual([2, 3]);
      expect(j.identities).toEqual([identity('s', 'a')]);
    });
  });
});

describe('issue 38: the tail at start', () => {
  it('an empty tail beside a snapshot is given its header (so what is appended next is not taken for a stale tail)', async () => {
    const d = await tempDir('unit-');
    await withJournal(d, {}, (j) => {
      j.append(move('s', 1));
      j.compact([]);
    });
    truncateSync(tailOf(d), 0);
    await withJournal(d, {}, (j) => {
      expect(j.notes).toEqual([]);
      expect(linesOf(tailOf(d))).toEqual([expect.objectContaining({ op: 'begin', generation: 1 })]);
      expect(j.stats.tailBytes).toBe(statSync(tailOf(d)).size);
      j.append(move('s', 2));
    });
    await withJournal(d, {}, (j) => expect(quantities(j, 's')).toEqual([1, 2]));
  });

  it('a torn last line is dropped and the next append starts where it began', async () => {
    const d = await tempDir('unit-');
    await withJournal(d, {}, (j) => j.append(move('s', 1)));
    const good = statSync(tailOf(d)).size;
    writeFileSync(tailOf(d), '{"v":2,"sto', { flag: 'a' });
    await withJournal(d, {}, (j) => {
      expect(j.notes).toEqual([`sandbox: dropped an incomplete last line of ${tailOf(d)} (a write interrupted before it was answered)`]);
      expect(j.stats).toMatchObject({ tailEntries: 1, tailBytes: good });
      j.append(move('s', 2));
    });
    writeFileSync(tailOf(d), '{"v":2,"sto\n', { flag: 'a' });
    await withJournal(d, {}, (j) => {
      expect(j.notes).toEqual([`sandbox: dropped the last line of ${tailOf(d)}, which is not JSON (a write interrupted before it was answered)`]);
      expect(j.stats.tailEntries).toBe(2);
      expect(j.stats.tailBytes).toBe(statSync(tailOf(d)).size);
      j.append(move('s', 3));
    });
    await withJournal(d, {}, (j) => expect(quantities(j, 's')).toEqual([1, 2, 3]));
  });

  it('a version-1 tail (no header) beside a snapshot was folded into it: replaced, with a note', async () => {
    const d = await tempDir('unit-');
    await withJournal(d, {}, (j) => {
      j.append(move('s', 1));
      j.compact([]);
    });
    writeFileSync(tailOf(d), line(move('s', 1)) + line(move('s', 9)));
    await withJournal(d, {}, (j) => {
      expect(j.notes).toEqual(['sandbox: dropped sandbox.jsonl of an earlier generation (a compaction was interrupted after its snapshot was written; the snapshot holds every write)']);
      expect(quantities(j, 's')).toEqual([1]);
      expect(j.stats).toMatchObject({ tailEntries: 0, tailBytes: statSync(tailOf(d)).size });
    });
  });

  it('a tail of a later generation than the snapshot (or beside none) stops the start', async () => {
    const d = await tempDir('unit-');
    await withJournal(d, {}, (j) => {
      j.append(move('s', 1));
      j.compact([]);
    });
    writeFileSync(tailOf(d), line({ v: 2, op: 'begin', generation: 2, at: AT }) + line(move('s', 2)));
    expect(() => Journal.open(d)).toThrow(`${tailOf(d)} line 1 begins generation 2 but sandbox.snapshot.jsonl holds 1 (was the snapshot removed or replaced?). The 0 line(s) before it (the first 0 bytes) are good`);
    unlinkSync(snapshotOf(d));
    expect(() => Journal.open(d)).toThrow(`${tailOf(d)} line 1 begins generation 2 but sandbox.snapshot.jsonl holds none (was the snapshot removed or replaced?)`);
    // The generation it names is the snapshot's: read.
    writeFileSync(tailOf(d), line({ v: 2, op: 'begin', generation: 0, at: AT }) + line(move('s', 2)));
    await withJournal(d, {}, (j) => expect(quantities(j, 's')).toEqual([2]));
  });
});

describe('issue 38: a tail line the sandbox did not write stops the start, naming the line, why and the good prefix', () => {
  const ok = line(move('s', 1));
  const id = (over: Record<string, unknown>) => ({ v: 2, store: 's', at: AT, op: 'identity', identity: { ...identity('s', 'a'), ...over } });
  const withPut = (p: unknown, v = 2) => ({ v, store: 's', at: AT, op: 'put', puts: [stock(1), p] });
  const lotWith = (over: Record<string, unknown>) => withPut({ ...stock(1), inventory: [lot(1), { ...lot(1), ...over }] });
  const cases: Array<[string, unknown, string]> = [
    ['a version of 3', { ...move('s', 1), v: 3 }, 'is in format version 3, written by a newer workbench (this one reads versions 1 and 2): start that version with this data dir, or move the data dir away to start from the seed'],
    ['a version of 0', { ...move('s', 1), v: 0 }, 'is a sandbox journal entry of the wrong shape: it is not a sandbox journal entry (field v must be 1 or 2, field store a string)'],
    ['a store that is not a string', { ...move('s', 1), store: 5 }, 'wrong shape: it is not a sandbox journal entry (field v must be 1 or 2, field store a string)'],
    ['an empty store', { ...move('s', 1), store: '' }, 'wrong shape: field store must not be empty'],
    ['no at', { ...move('s', 1), at: 5 }, 'wrong shape: field at must be a string (an ISO date-time)'],
    ['an array', [1], 'is not a sandbox journal entry'],
    ['a key that pollutes prototypes', JSON.parse('{"v":2,"store":"s","at":"x","op":"put","puts":[{"__proto__":{"x":1}}]}'), 'is not a sandbox journal entry (refused key puts.0.__proto__)'],
    ['an identity that is no object', { ...id({}), identity: 'x' }, 'wrong shape: field identity must be an object'],
    ['an identity of another store', id({ store_id: 't' }), "wrong shape: field identity.store_id must be the entry's store"],
    ['an identity without a user', id({ user: 'usr_1' }), 'wrong shape: field identity.user.id must be a string'],
    ['an identity whose user id is a number', id({ user: { id: 1 } }), 'wrong shape: field identity.user.id must be a string'],
    ['a customer id that is a number', id({ customer_id: 7 }), 'wrong shape: field identity.customer_id must be a string (the customer the token is bound to)'],
    ['a token digest in capitals', id({ access_token_sha256: 'A'.repeat(64) }), 'wrong shape: field identity.access_token_sha256 must be 64 hex digits (a SHA-256 digest)'],
    ['a token digest one digit short', id({ access_token_sha256: 'a'.repeat(63) }), 'field identity.access_token_sha256 must be 64 hex digits'],
    ['a token digest one digit long', id({ access_token_sha256: 'a'.repeat(65) }), 'field identity.access_token_sha256 must be 64 hex digits'],
    ['a token digest with a prefix', id({ access_token_sha256: `x${'a'.repeat(64)}` }), 'field identity.access_token_sha256 must be 64 hex digits'],
    ['a refresh digest that is a number', id({ refresh_token_sha256: 5 }), 'wrong shape: field identity.refresh_token_sha256 must be 64 hex digits (a SHA-256 digest)'],
    ['a state entry of version 1', { v: 1, store: 's', at: AT, op: 'state', changes: 1, puts: [] }, 'wrong shape: field op "state" is a version-2 entry'],
    ['a state entry with negative changes', { v: 2, store: 's', at: AT, op: 'state', changes: -1, puts: [] }, 'wrong shape: field changes must be a whole number'],
    ['a state entry with fractional changes', { v: 2, store: 's', at: AT, op: 'state', changes: 1.5, puts: [] }, 'wrong shape: field changes must be a whole number'],
    ['a state entry (in the tail)', { v: 2, store: 's', at: AT, op: 'state', changes: 0, puts: [] }, 'is a snapshot line (op "state") in the tail'],
    ['an unknown op (version 2)', { ...move('s', 1), op: 'delete' }, 'wrong shape: field op must be one of "put", "reset", "identity", "state"'],
    ['an unknown op (version 1)', { ...move('s', 1), v: 1, op: 'delete' }, 'wrong shape: field op must be one of "put", "reset", "identity". The'],
    ['puts that are no array', { ...move('s', 1), puts: {} }, 'wrong shape: field puts must be an array'],
    ['a put that is no object', withPut(5), 'wrong shape: field puts[1] must be an object'],
    ['a removed cart without its id', withPut({ kind: 'cart-deleted', id: '' }), "wrong shape: field puts[1].id must be a non-empty string (the removed cart's id)"],
    ['a removed cart whose id is a number', withPut({ kind: 'cart-deleted', id: 5 }), "wrong shape: field puts[1].id must be a non-empty string (the removed cart's id)"],
    ['a stock move without a product', withPut({ ...stock(1), product_id: '' }), 'wrong shape: field puts[1].product_id must be a non-empty string'],
    ['a stock move whose product is a number', withPut({ ...stock(1), product_id: 5 }), 'wrong shape: field puts[1].product_id must be a non-empty string'],
    ['a stock move without a variant', withPut({ ...stock(1), variant_id: '' }), 'wrong shape: field puts[1].variant_id must be a non-empty string'],
    ['a stock move whose variant is a number', withPut({ ...stock(1), variant_id: 5 }), 'wrong shape: field puts[1].variant_id must be a non-empty string'],
    ['a stock move without lots', withPut({ ...stock(1), inventory: {} }), 'wrong shape: field puts[1].inventory must be an array of lots'],
    ['a lot that is no object', withPut({ ...stock(1), inventory: [lot(1), 5] }), 'wrong shape: field puts[1].inventory[1] must be an object'],
    ['a lot whose batch is a number', lotWith({ lot_batch: 5 }), 'wrong shape: field puts[1].inventory[1].lot_batch and .manufacturer must be strings'],
    ['a lot whose manufacturer is a number', lotWith({ manufacturer: 5 }), 'wrong shape: field puts[1].inventory[1].lot_batch and .manufacturer must be strings'],
    ['a lot whose mfg_date is a number', lotWith({ mfg_date: 5 }), 'wrong shape: field puts[1].inventory[1].mfg_date and .exp_date must be YYYY-MM-DD dates'],
    ['a lot whose mfg_date has a time', lotWith({ mfg_date: '2026-01-01T00:00:00Z' }), 'field puts[1].inventory[1].mfg_date and .exp_date must be YYYY-MM-DD dates'],
    ['a lot whose mfg_date has a prefix', lotWith({ mfg_date: 'x2026-01-01' }), 'field puts[1].inventory[1].mfg_date and .exp_date must be YYYY-MM-DD dates'],
    ['a lot whose exp_date is a number', lotWith({ exp_date: 5 }), 'field puts[1].inventory[1].mfg_date and .exp_date must be YYYY-MM-DD dates'],
    ['a lot whose exp_date is a month', lotWith({ exp_date: '2028-01' }), 'field puts[1].inventory[1].mfg_date and .exp_date must be YYYY-MM-DD dates'],
    ['a lot whose quantity is a string', lotWith({ stock_quantity: '1' }), 'wrong shape: field puts[1].inventory[1].stock_quantity must be a number from 0 to 1000000000'],
    ['a lot whose quantity is negative', lotWith({ stock_quantity: -1 }), 'field puts[1].inventory[1].stock_quantity must be a number from 0 to 1000000000'],
    ['a lot whose quantity is over a billion', lotWith({ stock_quantity: 1_000_000_001 }), 'field puts[1].inventory[1].stock_quantity must be a number from 0 to 1000000000'],
    ['an unknown kind (version 2)', withPut({ kind: 'coupon', record: {} }), 'wrong shape: field puts[1].kind must be one of "product", "customer", "cart", "order", "cart-deleted", "stock"'],
    ['a stock move in version 1', withPut(stock(1), 1), 'wrong shape: field puts[0].kind must be one of "product", "customer", "cart", "order", "cart-deleted". The'],
    ['a record that is no object', withPut({ kind: 'customer', record: [] }), 'wrong shape: field puts[1].record must be an object'],
  ];

  it.each(cases)('%s', async (_name, bad, why) => {
    const d = await tempDir('unit-');
    writeFileSync(tailOf(d), ok + line(bad) + ok, { mode: 0o600 });
    const before = readFileSync(tailOf(d));
    let thrown: unknown;
    try {
      Journal.open(d).close();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(JournalReadError);
    const message = (thrown as Error).message;
    expect((thrown as Error).name).toBe('JournalReadError');
    const full = why.startsWith('wrong shape: ') ? `is a sandbox journal entry of the ${why}` : why.startsWith('field ') ? `is a sandbox journal entry of the wrong shape: ${why}` : why;
    expect(message).toContain(`${tailOf(d)} line 2 ${full}`);
    if (!why.startsWith('is in format version')) expect(message).toContain(`. The 1 line(s) before it (the first ${ok.length} bytes) are good: keep them with \`truncate -s ${ok.length} ${tailOf(d)}\` (the writes from line 2 on are lost), or restore the file from a backup`);
    expect(readFileSync(tailOf(d))).toEqual(before);
  });

  it('entries of the right shape at every edge are read: quantities 0 and a billion, a customer id, a removed cart, a record the check accepts', async () => {
    const d = await tempDir('unit-');
    const entries: Entry[] = [
      put('s', { kind: 'stock', product_id: 'prd_1', variant_id: 'var_1', inventory: [lot(0), lot(1_000_000_000)] }),
      { v: 2, store: 's', at: AT, op: 'identity', identity: { ...identity('s', 'a'), customer_id: 'cst_1' } },
      put('s', { kind: 'cart-deleted', id: 'crt_1' }, { kind: 'customer', record: customer('cst_1') }),
      { v: 1, store: 's', at: AT, op: 'put', puts: [{ kind: 'order', record: order('1001') }] },
    ];
    writeFileSync(tailOf(d), entries.map(line).join(''), { mode: 0o600 });
    const checked: string[] = [];
    await withJournal(d, { check: (kind) => (checked.push(kind), undefined) }, (j) => {
      expect(j.entriesOf('s')).toEqual([entries[0], entries[2], entries[3]]);
      expect(j.identities).toEqual([entries[1].op === 'identity' && entries[1].identity]);
    });
    expect(checked).toEqual(['customer', 'order']);
  });

  it('a record the fixture check refuses is named with its place in the entry', async () => {
    const d = await tempDir('unit-');
    writeFileSync(tailOf(d), ok + line(put('s', stock(1), { kind: 'customer', record: customer('cst_1') })) + ok, { mode: 0o600 });
    expect(() => Journal.open(d, { check: () => 'field address is required' })).toThrow(/line 2 is a sandbox journal entry of the wrong shape: field puts\[1\]\.record\.address is required\. /);
    expect(() => Journal.open(d, { check: () => 'field [0].sku is required' })).toThrow(/wrong shape: field puts\[1\]\.record\[0\]\.sku is required\. /);
    // Not the first `field ` in the text: only the leading one is the record's place.
    expect(() => Journal.open(d, { check: () => 'the field x' })).toThrow(/wrong shape: the field x\. /);
  });

  it('a bad tail header stops the start at the next line; a line that is not JSON before the last one too', async () => {
    const d = await tempDir('unit-');
    for (const header of [
      { v: 1, op: 'begin', generation: 0, at: AT },
      { v: 2, op: 'begin', generation: 0.5, at: AT },
    ]) {
      writeFileSync(tailOf(d), line(header) + ok, { mode: 0o600 });
      expect(() => Journal.open(d)).toThrow(`${tailOf(d)} line 1 is not a tail header. The 0 line(s) before it (the first 0 bytes) are good`);
    }
    writeFileSync(tailOf(d), `${ok}nope\n${ok}`, { mode: 0o600 });
    expect(() => Journal.open(d)).toThrow(`${tailOf(d)} line 2 is not valid JSON (`);
  });
});

describe('issue 38: a snapshot the sandbox did not write stops the start', () => {
  const head = line({ v: 2, op: 'snapshot', generation: 1, at: AT });
  const state = line({ v: 2, store: 's', at: AT, op: 'state', changes: 1, puts: [stock(5)] });
  const end = (lines = 1, generation = 1) => line({ v: 2, op: 'end', generation, lines });
  const cases: Array<[string, string, string]> = [
    ['an empty file', '', 'line 1 is missing (the file is empty)'],
    ['a first line that is no header', state + end(), 'line 1 is not a snapshot header'],
    ['a header of version 1', line({ v: 1, op: 'snapshot', generation: 1, at: AT }) + state + end(), 'line 1 is not a snapshot header'],
    ['a header without a whole generation', line({ v: 2, op: 'snapshot', generation: 1.5, at: AT }) + state + end(), 'line 1 is not a snapshot header'],
    ['a header of a newer version', line({ v: 9, op: 'snapshot', generation: 1, at: AT }), 'line 1 is in format version 9, written by a newer workbench'],
    ['no end line', head + state, 'line 3 is missing: the end line was not found'],
    ['an end line with the wrong count', head + state + end(2), 'line 3 ends the snapshot with the wrong count (2, read 1)'],
    ['an end line of another generation', head + state + end(1, 2), 'line 3 ends the snapshot with the wrong count (1, read 1)'],
    ['a line after the end', head + state + end() + state, 'line 4 comes after the end line'],
    ['a put in the snapshot', head + line(move('s', 1)) + end(), 'line 2 has op "put", which a snapshot does not hold'],
    ['a reset in the snapshot', head + line({ v: 2, store: 's', at: AT, op: 'reset' }) + end(), 'line 2 has op "reset", which a snapshot does not hold'],
    ['a line that is not JSON', `${head}nope\n${end()}`, 'line 2 is not valid JSON ('],
    ['a line of the wrong shape', head + line({ v: 2, store: '', at: AT, op: 'state', changes: 1, puts: [] }) + end(), 'line 2 is a sandbox journal entry of the wrong shape: field store must not be empty'],
    ['a last line cut short', head + state + end().trimEnd(), 'line 3 is cut short (no newline at its end)'],
    ['a line over the limit', head + line(put('s', { kind: 'customer', record: customer('c', { note: 'x'.repeat(2000) }) })) + end(), 'line 2 is longer than 1000 bytes'],
  ];

  it.each(cases)('%s', async (_name, text, why) => {
    const d = await tempDir('unit-');
    writeFileSync(snapshotOf(d), text, { mode: 0o600 });
    let thrown: unknown;
    try {
      Journal.open(d, { maxLineBytes: 1000 }).close();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(JournalReadError);
    expect((thrown as Error).message).toContain(`${snapshotOf(d)} ${why}`);
    if (!why.includes('newer workbench')) expect((thrown as Error).message).toMatch(/; a snapshot is written whole or not at all, so it was changed outside the workbench: restore it from a backup \(or move the data dir away to start from the seed\)$/);
  });

  it('a snapshot written by hand the way the sandbox writes it is read, identities and all', async () => {
    const d = await tempDir('unit-');
    const ident = line({ v: 2, store: 's', at: AT, op: 'identity', identity: identity('s', 'b') });
    writeFileSync(snapshotOf(d), head + ident + state + end(2), { mode: 0o600 });
    writeFileSync(tailOf(d), line({ v: 2, op: 'begin', generation: 1, at: AT }) + line(move('s', 6)), { mode: 0o600 });
    await withJournal(d, {}, (j) => {
      expect(j.identities).toEqual([identity('s', 'b')]);
      expect(quantities(j, 's')).toEqual([5, 6]);
      expect(j.stats).toMatchObject({ generation: 1, tailEntries: 1 });
    });
  });

  it('leftover .tmp files are removed with a note each', async () => {
    const d = await tempDir('unit-');
    mkdirSync(d, { recursive: true });
    writeFileSync(`${tailOf(d)}.tmp`, 'x');
    writeFileSync(`${snapshotOf(d)}.tmp`, 'y');
    await withJournal(d, {}, (j) => {
      expect(j.notes).toEqual([
        'sandbox: removed sandbox.jsonl.tmp (a compaction interrupted before it finished; nothing was lost)',
        'sandbox: removed sandbox.snapshot.jsonl.tmp (a compaction interrupted before it finished; nothing was lost)',
      ]);
    });
    expect(readdirSync(d).sort()).toEqual(['sandbox.jsonl']);
  });
});

describe('issue 38: the fold (snapshot lines and the in-memory journal)', () => {
  const fold = (...entries: Entry[]) => {
    const f = new Fold();
    for (const e of entries) f.add(e);
    return f.entries('s', AT);
  };
  const putsOf = (out: Entry[]) => out.flatMap((e) => (e.op === 'state' ? e.puts : []));

  it('nothing changed: no line; changes without records: one line', () => {
    expect(fold()).toEqual([]);
    expect(fold({ v: 2, store: 's', at: AT, op: 'identity', identity: identity('s', 'a') })).toEqual([]);
    expect(fold({ v: 2, store: 's', at: AT, op: 'state', changes: 4, puts: [] })).toEqual([{ v: 2, store: 's', at: AT, op: 'state', changes: 4, puts: [] }]);
  });

  it('counts every put of a write, not state lines, and starts again at a reset', () => {
    expect(fold(put('s', stock(1, 'a'), stock(2, 'b')), put('s', stock(3, 'a')))[0]).toMatchObject({ changes: 3 });
    expect(fold({ v: 2, store: 's', at: AT, op: 'state', changes: 10, puts: [stock(1, 'a'), stock(1, 'b')] }, put('s', stock(3, 'c')))[0]).toMatchObject({ changes: 11 });
    const reset = fold(put('s', stock(1, 'a'), stock(2, 'b')), { v: 2, store: 's', at: AT, op: 'reset' }, put('s', stock(7, 'c')));
    expect(reset).toEqual([{ v: 2, store: 's', at: AT, op: 'state', changes: 1, puts: [stock(7, 'c')] }]);
  });

  it('a stock move lands in the product\'s record when there is one, else it is kept per variant', () => {
    const p = product('prd_1', ['var_1', 'var_2']);
    const applied = putsOf(fold(put('s', { kind: 'product', record: p }), put('s', stock(0, 'var_1')), put('s', stock(4, 'var_2'))));
    expect(applied).toEqual([{ kind: 'product', record: withInventory(withInventory(p, 'var_1', [lot(0)]), 'var_2', [lot(4)]) }]);
    const variants = (applied[0] as { record: ProductRecord }).record.variants;
    expect(variants.map((v) => [v.id, v.inventory![0]!.stock_quantity, v.stock_available])).toEqual([
      ['var_1', 0, false],
      ['var_2', 4, true],
    ]);
    // Without the record: the last lots of each variant, in the order first moved.
    expect(putsOf(fold(put('s', stock(1, 'var_2')), put('s', stock(2, 'var_1')), put('s', stock(3, 'var_2'))))).toEqual([stock(3, 'var_2'), stock(2, 'var_1')]);
    // A record written after the moves replaces them.
    expect(putsOf(fold(put('s', stock(1, 'var_2')), put('s', { kind: 'product', record: p })))).toEqual([{ kind: 'product', record: p }]);
  });

  it('withInventory: the variant\'s lots replaced, stock_available from their sum, the other variants untouched', () => {
    const p = product('prd_1', ['var_1', 'var_2']);
    const moved = withInventory(p, 'var_2', [lot(0), lot(3)]);
    expect(moved.variants[0]).toBe(p.variants[0]);
    expect(moved.variants[1]).toMatchObject({ id: 'var_2', inventory: [lot(0), lot(3)], stock_available: true });
    expect(withInventory(moved, 'var_2', [lot(0), lot(0)]).variants[1].stock_available).toBe(false);
    expect(p.variants[1].inventory).toEqual([lot(0)]);
  });

  it('records by key in order of first write; orders by number; a removed cart moves to the end, and again when written after', () => {
    const out = putsOf(
      fold(
        put('s', { kind: 'cart', record: cart('crt_1') }, { kind: 'customer', record: customer('cst_1') }, { kind: 'cart', record: cart('crt_2') }),
        put('s', { kind: 'order', record: order('1001') }, { kind: 'customer', record: customer('cst_1', { v: 2 }) }, { kind: 'order', record: order('1001') }),
        put('s', { kind: 'cart-deleted', id: 'crt_1' }),
      ),
    );
    expect(out).toEqual([
      { kind: 'customer', record: customer('cst_1', { v: 2 }) },
      { kind: 'cart', record: cart('crt_2') },
      { kind: 'order', record: order('1001') },
      { kind: 'cart-deleted', id: 'crt_1' },
    ]);
    const again = putsOf(
      fold(
        put('s', { kind: 'cart', record: cart('crt_1') }, { kind: 'cart', record: cart('crt_2') }),
        put('s', { kind: 'cart-deleted', id: 'crt_1' }, { kind: 'cart', record: cart('crt_3') }),
        put('s', { kind: 'cart', record: cart('crt_1', 'back') }, { kind: 'cart', record: cart('crt_4') }),
        put('s', { kind: 'cart', record: cart('crt_1', 'again') }),
      ),
    );
    expect(again).toEqual([
      { kind: 'cart', record: cart('crt_2') },
      { kind: 'cart', record: cart('crt_3') },
      { kind: 'cart-deleted', id: 'crt_1' },
      { kind: 'cart', record: cart('crt_1', 'again') },
      { kind: 'cart', record: cart('crt_4') },
    ]);
  });
});

// The slowest cases last (Stryker stops at a mutant's first failing test, in file order).
describe('issue 38: lines longer than the read chunk', () => {
  it('lines longer than the 1 MB read chunk are read whole; one over the limit is named in MB', async () => {
    const d = await tempDir('unit-');
    const max = 1.125 * 1024 * 1024;
    const big = put('s', { kind: 'customer', record: customer('cst_1', { note: 'x'.repeat(1_100_000) }) });
    writeFileSync(tailOf(d), line(move('s', 1)) + line(big) + line(move('s', 2)), { mode: 0o600 });
    await withJournal(d, { maxLineBytes: max }, (j) => {
      expect(j.entriesOf('s')).toEqual([move('s', 1), big, move('s', 2)]);
    });
    const huge = put('s', { kind: 'customer', record: customer('cst_1', { note: 'x'.repeat(1_200_000) }) });
    writeFileSync(tailOf(d), line(move('s', 1)) + line(huge) + line(move('s', 2)), { mode: 0o600 });
    expect(() => Journal.open(d, { maxLineBytes: max })).toThrow(/sandbox\.jsonl line 2 is longer than 1\.125 MB, longer than any entry the sandbox writes\. The 1 line\(s\) before it \(the first \d+ bytes\) are good/);
    // As the last line, without its newline, it is a torn write: dropped.
    writeFileSync(tailOf(d), line(move('s', 1)) + JSON.stringify(huge), { mode: 0o600 });
    await withJournal(d, { maxLineBytes: max }, (j) => {
      expect(j.notes).toEqual([expect.stringMatching(/dropped an incomplete last line/)]);
      expect(quantities(j, 's')).toEqual([1]);
    });
  });
});

describe('issue 38: a long start says how far it got', () => {
  /** A tail of `n` customer puts; `tick(call)` moves the (fake) clock as the fixture check sees each record. */
  async function read(n: number, tick: (call: number) => number): Promise<string[]> {
    const d = await tempDir('unit-');
    writeFileSync(tailOf(d), Array.from({ length: n }, (_, i) => line(put('s', { kind: 'customer', record: customer(`cst_${i}`) }))).join(''), { mode: 0o600 });
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000_000 });
    let calls = 0;
    const log: string[] = [];
    const check = () => {
      const ms = tick(++calls);
      if (ms) vi.setSystemTime(Date.now() + ms);
      return undefined;
    };
    await withJournal(d, { check, log: (l) => log.push(l) }, () => {});
    vi.useRealTimers();
    return log;
  }

  it('a line every 4096 lines once a second has passed since the last, and a summary when the start took a second or more', async () => {
    const log = await read(8192, (call) => (call === 4096 ? 1000 : call === 8192 ? 999 : 0));
    let at4096 = 0;
    for (let i = 0; i < 4095; i++) at4096 += Buffer.byteLength(line(put('s', { kind: 'customer', record: customer(`cst_${i}`) })));
    expect(log).toEqual([`sandbox: reading sandbox.jsonl: 4,096 lines, ${(at4096 / 1024 / 1024).toFixed(1)} MB, 1.0 s`, 'sandbox: read 8,192 journal lines in 2.0 s (8,192 in the tail)']);
    expect(log[0]).not.toBe('sandbox: reading sandbox.jsonl: 4,096 lines, 0.0 MB, 1.0 s');
  });

  it('nothing when the start took under a second, and a second exactly is a second', async () => {
    expect(await read(4096, (call) => (call === 4096 ? 999 : 0))).toEqual([]);
    expect(await read(4095, (call) => (call === 4095 ? 1000 : 0))).toEqual(['sandbox: read 4,095 journal lines in 1.0 s (4,095 in the tail)']);
  });

  it('no line before the 4096th, however slow', async () => {
    expect(await read(4095, (call) => (call === 1 ? 4095 : 0))).toEqual(['sandbox: read 4,095 journal lines in 4.1 s (4,095 in the tail)']);
  });
});
