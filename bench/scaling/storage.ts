// Storage scaling rows (`npm run bench -- --scaling storage`): the sandbox journal (workbench/sandbox/journal.ts).
// (1) Restart: a tail of 0 / 10k / 100k / 1M stock moves over 100 stores, written in-process in the
//     journal's own format (Journal.append with `sync: false`: the same lines, without an fsync each,
//     which would take hours for a million), then the CLI `storefront-contract mock --data-dir` started
//     as a child: seconds from spawn to its "listening" line, RSS then, and the first answer of a touched
//     store (its world rebuilt from its 1% of the entries) with RSS after it.
// (2) Data dir after 1M stock moves with compaction at the defaults (100,000 entries or 64 MB): written
//     in-process through Journal.append, compacting whenever it is due, as the sandbox does after a
//     write; size at the end and the largest it was (sampled every 10,000 moves and around each
//     compaction), then the restart of that data dir.
// (3) Touched stores: 100 / 1,000 / 5,000 stores with 10 moves each, compacted into a snapshot; RSS of
//     the restarted child at listening and after reading up to 500 of them (every world rebuilt, at most
//     64 held).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { repoRoot } from '../../scripts/lib/repo.js';
import { journalRecordCheck } from '../../workbench/sandbox/fixtures.js';
import { ENTRY_VERSION, Journal, type Entry } from '../../workbench/sandbox/journal.js';
import { childRssMB } from '../lib/child-cpu.js';

export interface StorageRow {
  load: string;
  entries: number;
  stores: number;
  /** Bytes on disk of the sandbox's files, MB. */
  dataDirMB?: number;
  /** The largest the files were while writing (compaction rows), MB. */
  peakDataDirMB?: number;
  compactions?: number;
  /** Seconds to write the entries in-process. */
  writeSeconds?: number;
  /** Seconds Journal.open takes in-process (read and check every line, the records against the fixture schemas): the journal's share of a start. */
  openSeconds?: number;
  /** CPU seconds of that Journal.open (user + system): the load-independent figure. */
  openCpuSeconds?: number;
  /** Seconds from spawning the CLI (the repository's, through tsx) to its "listening" line. */
  listeningSeconds?: number;
  /** The same with the compiled bin of `npm run build` (what an installed package runs), when a build exists. */
  listeningSecondsCompiled?: number;
  rssListeningMB?: number;
  /** Seconds to the first answer of a touched store after listening (its world rebuilt). */
  firstAnswerSeconds?: number;
  rssAfterReadsMB?: number;
  /** Progress lines the start printed (a line a second past the first). */
  progressLines?: number;
  note?: string;
}

const PRODUCT = 'prd_7Q2K9X';
const VARIANTS = ['var_4M8T2C', 'var_4M8T2D'];
const lot = (q: number, batch: string) => ({ lot_batch: batch, manufacturer: 'Kesari Naturals', mfg_date: '2026-06-01', exp_date: '2028-05-31', stock_quantity: q });

/** A stock move as the back office journals it (two lots after the move). */
function move(i: number, stores: number): Entry {
  return {
    v: ENTRY_VERSION,
    store: `store-${i % stores}`,
    at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    op: 'put',
    puts: [{ kind: 'stock', product_id: PRODUCT, variant_id: VARIANTS[i % 2], inventory: [lot(i % 500, 'KN-2406-A12'), lot(7, 'KN-2407-B03')] }],
  };
}

function dirMB(dir: string): number {
  let bytes = 0;
  for (const f of readdirSync(dir)) if (f.startsWith('sandbox')) bytes += statSync(path.join(dir, f)).size;
  return Number((bytes / 1024 / 1024).toFixed(1));
}

const seconds = (from: bigint) => Number((Number(process.hrtime.bigint() - from) / 1e9).toFixed(2));

/** The compiled bin `npm run build` stages (the installed package's), when this clone has a build. */
const COMPILED_BIN = path.join(repoRoot, 'dist/packages/storefront-contract-tools/dist/cli/storefront-contract.js');

/** Starts the CLI on the data dir (the sources through tsx, or the compiled bin); resolves at its listening line. */
async function startChild(dataDir: string, compiled = false): Promise<{ child: ChildProcess; url: string; listeningSeconds: number; progress: () => number }> {
  const started = process.hrtime.bigint();
  const args = ['mock', '--port', '0', '--quiet', '--data-dir', dataDir];
  // The compiled bin resolves the library to its compiled build too: no `sfc-source` condition.
  const env = { ...process.env, NODE_OPTIONS: compiled ? '' : '--conditions=sfc-source' };
  const child = spawn(process.execPath, compiled ? [COMPILED_BIN, ...args] : ['--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('world and back office')) resolve({ child, url: m[1], listeningSeconds: seconds(started), progress: () => (err.match(/sandbox: reading /g) ?? []).length });
    });
    child.once('exit', (code) => reject(new Error(`workbench exited with ${code} before listening: ${err.slice(0, 300)}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Restart measurements of a data dir: listening, RSS, the first answers of `reads` touched stores. */
async function restart(dataDir: string, stores: number, reads: number): Promise<Partial<StorageRow>> {
  const check = await journalRecordCheck();
  const cpu = process.cpuUsage();
  const t = process.hrtime.bigint();
  Journal.open(dataDir, { check, log: () => {} }).close();
  const openSeconds = seconds(t);
  const used = process.cpuUsage(cpu);
  const openCpuSeconds = Number(((used.user + used.system) / 1e6).toFixed(2));
  let listeningSecondsCompiled: number | undefined;
  if (existsSync(COMPILED_BIN)) {
    const compiled = await startChild(dataDir, true);
    listeningSecondsCompiled = compiled.listeningSeconds;
    await stop(compiled.child);
  }
  const { child, url, listeningSeconds, progress } = await startChild(dataDir);
  try {
    const rssListeningMB = childRssMB(child.pid!);
    let firstAnswerSeconds: number | undefined;
    const step = Math.max(1, Math.floor(stores / reads));
    for (let i = 0, n = 0; i < stores && n < reads; i += step, n++) {
      const t = process.hrtime.bigint();
      const res = await request(`${url}/__simulator/stores/store-${i}/world/products`);
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`store-${i}: ${res.statusCode}`);
      firstAnswerSeconds ??= seconds(t);
    }
    return { openSeconds, openCpuSeconds, listeningSeconds, listeningSecondsCompiled, rssListeningMB, firstAnswerSeconds, rssAfterReadsMB: childRssMB(child.pid!), progressLines: progress() };
  } finally {
    await stop(child);
  }
}

function tempData(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'bench-storage-'));
}

/** `entries` moves over `stores` stores written as one tail (no compaction). */
function writeTail(dir: string, entries: number, stores: number): number {
  const t = process.hrtime.bigint();
  const journal = Journal.open(dir, { sync: false, compactEntries: Number.MAX_SAFE_INTEGER, compactBytes: Number.MAX_SAFE_INTEGER });
  for (let i = 0; i < entries; i++) journal.append(move(i, stores));
  journal.close();
  return seconds(t);
}

export async function storageRows(): Promise<StorageRow[]> {
  const rows: StorageRow[] = [];
  const STORES = 100;
  for (const entries of [0, 10_000, 100_000, 1_000_000]) {
    process.stderr.write(`scaling: storage, restart with a tail of ${entries} entries\n`);
    const dir = tempData();
    try {
      const writeSeconds = writeTail(dir, entries, STORES);
      const measured = await restart(dir, entries ? STORES : 1, 1);
      rows.push({ load: 'restart: a tail of stock moves (no snapshot)', entries, stores: entries ? STORES : 0, dataDirMB: dirMB(dir), writeSeconds, ...measured });
    } catch (e) {
      rows.push({ load: 'restart: a tail of stock moves (no snapshot)', entries, stores: STORES, note: String((e as Error).message).slice(0, 160) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  process.stderr.write('scaling: storage, 1,000,000 stock moves with compaction at the defaults\n');
  {
    const dir = tempData();
    const entries = 1_000_000;
    try {
      const t = process.hrtime.bigint();
      const journal = Journal.open(dir, { sync: false, log: () => {} });
      let peak = 0;
      for (let i = 0; i < entries; i++) {
        journal.append(move(i, STORES));
        if (journal.due) {
          peak = Math.max(peak, dirMB(dir));
          journal.compact([]);
          peak = Math.max(peak, dirMB(dir));
        }
        if (i % 10_000 === 0) peak = Math.max(peak, dirMB(dir));
      }
      const compactions = journal.compactions;
      journal.close();
      const writeSeconds = seconds(t);
      peak = Math.max(peak, dirMB(dir));
      const measured = await restart(dir, STORES, 1);
      rows.push({ load: 'data dir after 1M stock moves, compaction at the defaults', entries, stores: STORES, dataDirMB: dirMB(dir), peakDataDirMB: peak, compactions, writeSeconds, ...measured });
    } catch (e) {
      rows.push({ load: 'data dir after 1M stock moves, compaction at the defaults', entries, stores: STORES, note: String((e as Error).message).slice(0, 160) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  for (const stores of [100, 1000, 5000]) {
    process.stderr.write(`scaling: storage, ${stores} touched stores\n`);
    const dir = tempData();
    const entries = stores * 10;
    try {
      const t = process.hrtime.bigint();
      const journal = Journal.open(dir, { sync: false });
      for (let i = 0; i < entries; i++) journal.append(move(i, stores));
      journal.compact([]);
      journal.close();
      const writeSeconds = seconds(t);
      const reads = Math.min(stores, 500);
      const measured = await restart(dir, stores, reads);
      rows.push({ load: `touched stores (10 moves each, compacted), ${reads} read after the restart`, entries, stores, dataDirMB: dirMB(dir), writeSeconds, ...measured });
    } catch (e) {
      rows.push({ load: 'touched stores', entries, stores, note: String((e as Error).message).slice(0, 160) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
