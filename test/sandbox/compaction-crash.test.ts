// kill -9 during a compaction loses nothing acknowledged. The workbench CLI runs as a real child with
// `--data-dir` and `--compact-after 6`, and the journal's test hook (SFC_TEST_COMPACTION_CRASH_AT) kills
// it with SIGKILL at one named point of the first compaction: half-way through the snapshot, after the
// snapshot's fsync, after the new tail's fsync, after the snapshot's rename (the commit point), after the
// tail's rename. Stock moves are sent one at a time until the child dies; after each restart the stock
// is the acknowledged moves, plus at most the one in flight when it died, and no .tmp file is left. One
// data dir goes through every point in turn, so each restart also proves the journal compacts again.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { COMPACTION_POINTS } from '../../workbench/sandbox/journal.js';
import { http, tempDir } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function cli(dataDir: string, crashAt?: string): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown> }> {
  const env = { ...process.env };
  if (crashAt) env.SFC_TEST_COMPACTION_CRASH_AT = crashAt;
  else delete env.SFC_TEST_COMPACTION_CRASH_AT;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), 'mock', '--port', '0', '--quiet', '--data-dir', dataDir, '--compact-after', '6'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stderr!.resume();
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('world and back office')) resolve({ child, url: m[1], exited });
    });
    child.once('exit', (code) => reject(new Error(`cli exited with ${code}: ${out}`)));
  });
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

describe('kill -9 during a compaction', () => {
  it(`at each point (${COMPACTION_POINTS.join(', ')}): every acknowledged write is there after a restart`, async () => {
    const t = await tempDir('compaction-crash-');
    cleanups.push(t.remove);
    // One data dir through every point: each restart checks the last crash and runs into the next one.
    let known: number | undefined;
    let acknowledged = 0;
    for (const point of [...COMPACTION_POINTS, undefined]) {
      const run = await cli(t.dir, point);
      try {
        const now = await stock(run.url);
        if (known !== undefined) {
          // The write whose compaction was killed was durable but never answered: it may be there.
          expect(now - known, `after the kill at the point before ${point ?? 'the end'}`).toBeGreaterThanOrEqual(acknowledged);
          expect(now - known).toBeLessThanOrEqual(acknowledged + 1);
        }
        expect(readdirSync(t.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
        known = now;
        acknowledged = 0;
        if (point === undefined) break;
        for (let i = 0; i < 20; i++) {
          if (!(await move(run.url))) break;
          acknowledged++;
        }
        await run.exited;
        expect(run.child.signalCode, `the hook at ${point} did not fire`).toBe('SIGKILL');
        // A tail left full by a killed compaction is compacted again at the next write: no write is answered then.
        if (point === COMPACTION_POINTS[0]) expect(acknowledged).toBeGreaterThanOrEqual(5);
      } finally {
        if (run.child.exitCode === null && run.child.signalCode === null) {
          run.child.kill('SIGTERM');
          await run.exited;
        }
      }
    }
    expect(readdirSync(t.dir).filter((f) => f.startsWith('sandbox')).sort()).toEqual(['sandbox.jsonl', 'sandbox.snapshot.jsonl']);
  }, 90_000);
});
