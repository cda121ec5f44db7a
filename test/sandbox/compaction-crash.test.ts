// kill -9 during a compaction loses nothing acknowledged. (1) Every named point of a compaction: a real
// child (test/helpers/journal-writer.ts) appends stock moves to a journal, compacting every 6 entries as
// the sandbox does, and prints `ack i` once a write returned; the journal's test hook
// (SFC_TEST_COMPACTION_CRASH_AT) kills it with SIGKILL at the point: half-way through the snapshot, after
// the snapshot's fsync, after the new tail's fsync, after the snapshot's rename (the commit point), after
// the tail's rename. Reopened, the journal holds every acknowledged write (plus at most the one in flight),
// no .tmp file, and takes writes and compacts again. (2) End to end: the workbench CLI with `--data-dir`
// and `--compact-after 6`, killed at the commit point while stock moves are sent over HTTP; after a
// restart the stock is the acknowledged moves, plus at most the one in flight.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { mockCli, stopChild, type RunningMock } from '../helpers/mock-cli.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { COMPACTION_POINTS, Journal } from '../../workbench/sandbox/journal.js';
import { http } from './helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';

const { tempDir } = cleanupAfterEach();
const mock = mockCli();

/** The workbench CLI on a data dir compacting every 6 writes; with `crashAt`, killed (SIGKILL) at that point of a compaction. */
function cli(dataDir: string, crashAt?: string): Promise<RunningMock> {
  const env = { ...process.env };
  if (crashAt) env.SFC_TEST_COMPACTION_CRASH_AT = crashAt;
  else delete env.SFC_TEST_COMPACTION_CRASH_AT;
  return mock.start(['--port', '0', '--quiet', '--data-dir', dataDir, '--compact-after', '6'], 'world and back office', { env });
}

const PRODUCT = 'prd_7Q2K9X';
const VARIANT = 'var_4M8T2C';

async function stock(url: string): Promise<number> {
  const r = await http(`${url}/__simulator/stores/demo-store/world/products`);
  const variant = r.json.find((p: any) => p.id === PRODUCT).variants.find((v: any) => v.id === VARIANT);
  return variant.inventory.reduce((n: number, l: any) => n + l.stock_quantity, 0);
}

/** One stock move; true when acknowledged, false when the child died before answering. */
async function move(url: string): Promise<boolean> {
  try {
    const r = await http(`${url}/__simulator/stores/demo-store/inventory`, 'POST', { body: { product_id: PRODUCT, variant_id: VARIANT, adjust: 1 } });
    expect(r.status, r.text).toBe(200);
    return true;
  } catch {
    return false;
  }
}

/** Variant ids written to each store's journal, as numbers. */
function written(dir: string): number[] {
  const journal = Journal.open(dir, { log: () => {} });
  try {
    const ids: number[] = [];
    for (const store of ['s0', 's1', 's2']) {
      for (const e of journal.entriesOf(store)) if (e.op === 'put' || e.op === 'state') for (const p of e.puts) if (p.kind === 'stock') ids.push(Number(p.variant_id.slice(4)));
    }
    return ids.sort((a, b) => a - b);
  } finally {
    journal.close();
  }
}

function writer(dir: string, first: number, count: number, crashAt?: string): { acked: number[]; signal: NodeJS.Signals | null } {
  const env = { ...process.env };
  if (crashAt) env.SFC_TEST_COMPACTION_CRASH_AT = crashAt;
  else delete env.SFC_TEST_COMPACTION_CRASH_AT;
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test/helpers/journal-writer.ts'), dir, '6', String(first), String(count)], { cwd: repoRoot, env, encoding: 'utf8', timeout: hangGuard(60_000) });
  const acked = [...r.stdout.matchAll(/^ack (\d+)$/gm)].map((m) => Number(m[1]));
  return { acked, signal: r.signal };
}

describe('kill -9 at each point of a compaction (a journal writer as a child)', () => {
  it.each(COMPACTION_POINTS.map((p) => [p]))('%s: every acknowledged write is there after reopening', async (point) => {
    const data = await tempDir('compaction-point-');
    const { acked, signal } = writer(data, 0, 30, point);
    expect(signal, `the hook at ${point} did not fire`).toBe('SIGKILL');
    expect(acked).toEqual([0, 1, 2, 3, 4]);
    const ids = written(data);
    // The sixth write reached the disk before its compaction started: it may be there, never answered.
    expect([acked, [...acked, 5]]).toContainEqual(ids);
    expect(readdirSync(data).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // The journal takes writes and compacts again (6 more: one compaction), then reads back all.
    const more = writer(data, 100, 8);
    expect(more.signal).toBeNull();
    expect(more.acked).toHaveLength(8);
    expect(written(data)).toEqual([...ids, 100, 101, 102, 103, 104, 105, 106, 107]);
  }, hangGuard(60_000));
});

describe('kill -9 at the commit point of a compaction, end to end', () => {
  it('the workbench CLI killed there while answering stock moves keeps every acknowledged one', async () => {
    const data = await tempDir('compaction-crash-');
    const first = await cli(data, 'snapshot-renamed');
    const before = await stock(first.url);
    let acknowledged = 0;
    for (let i = 0; i < 20; i++) {
      if (!(await move(first.url))) break;
      acknowledged++;
    }
    await first.exited;
    expect(first.child.signalCode, 'the hook did not fire').toBe('SIGKILL');
    expect(acknowledged).toBeGreaterThanOrEqual(5);
    const second = await cli(data);
    try {
      const after = await stock(second.url);
      expect(after - before).toBeGreaterThanOrEqual(acknowledged);
      expect(after - before).toBeLessThanOrEqual(acknowledged + 1);
      expect(readdirSync(data).filter((f) => f.startsWith('sandbox')).sort()).toEqual(['sandbox.jsonl', 'sandbox.snapshot.jsonl']);
    } finally {
      await stopChild(second.child);
    }
  }, hangGuard(60_000));
});
