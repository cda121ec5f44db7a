// kill -9 during a compaction of a 0.2.x journal loses nothing acknowledged. Every named point of a compaction: a real
// child (test/helpers/journal-writer.ts) appends stock moves to a journal, compacting every 6 entries as
// the sandbox does, and prints `ack i` once a write returned; the journal's test hook
// (SFC_TEST_COMPACTION_CRASH_AT) kills it with SIGKILL at the point: half-way through the snapshot, after
// the snapshot's fsync, after the new tail's fsync, after the snapshot's rename (the commit point), after
// the tail's rename. Reopened, the journal holds every acknowledged write (plus at most the one in flight),
// no .tmp file, and takes writes and compacts again. This is the journal of 0.2.x, which the upgrade
// still reads (workbench/upgrade/); the workbench's own store is crash-tested in test/store/.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { COMPACTION_POINTS, Journal } from '../../workbench/sandbox/journal.js';
import { hangGuard } from '../helpers/hang-guard.js';

const { tempDir } = cleanupAfterEach();

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
