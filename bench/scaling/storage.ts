// Storage scaling rows (`npm run bench -- --scaling storage`): the workbench's one store
// (workbench/store/: workbench.sqlite in --data-dir).
// (1) Restart: 0 / 10k / 100k / 1M stock moves over 100 stores, written in-process through the sandbox's
//     own write path (Sandbox.commit over the store's world log: each store's entries folded every
//     FOLD_EVERY writes, in transactions of 1,000 writes to keep the writing short), then the CLI
//     `storefront-contract mock --data-dir` started as a child: seconds from spawn to its "listening" line
//     (nothing is replayed: the store is opened, not read), the store's own share of a start in-process
//     (open the database, build the first touched world), RSS then, and the first answer of a touched store
//     (its world rebuilt from its folded entries) with RSS after it.
// (2) Touched stores: 100 / 1,000 / 5,000 stores with 10 moves each; RSS of the restarted child at
//     listening and after reading up to 500 of them (every world rebuilt, at most 64 held).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { repoRoot } from '../../scripts/lib/repo.js';
import { Sandbox } from '../../workbench/sandbox/sandbox.js';
import { DATABASE_FILE, openStoreDatabase, stampSchema, transactionOf } from '../../workbench/store/database.js';
import { SqliteWorldLog } from '../../workbench/store/world-log.js';
import type { Put } from '../../workbench/sandbox/journal.js';
import { childRssMB } from '../lib/child-cpu.js';

export interface StorageRow {
  load: string;
  entries: number;
  stores: number;
  /** Bytes on disk of the store's files (workbench.sqlite and its WAL), MB. */
  dataDirMB?: number;
  /** Rows of the world log after the writes (each store's entries folded every FOLD_EVERY). */
  logRows?: number;
  /** Seconds to write the entries in-process. */
  writeSeconds?: number;
  /** Seconds the store's share of a start takes in-process: open the database, build one touched store's world. */
  openSeconds?: number;
  /** CPU seconds of that (user + system): the load-independent figure. */
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

/** A stock move as the back office keeps it (two lots after the move). */
function move(i: number): Put[] {
  return [{ kind: 'stock', product_id: PRODUCT, variant_id: VARIANTS[i % 2]!, inventory: [lot(i % 500, 'KN-2406-A12'), lot(7, 'KN-2407-B03')] }];
}

function dirMB(dir: string): number {
  let bytes = 0;
  for (const f of readdirSync(dir)) if (f.startsWith(DATABASE_FILE)) bytes += statSync(path.join(dir, f)).size;
  return Number((bytes / 1024 / 1024).toFixed(1));
}

const seconds = (from: bigint) => Number((Number(process.hrtime.bigint() - from) / 1e9).toFixed(2));

/** The compiled bin `npm run build` stages (the installed package's), when this clone has a build. */
const COMPILED_BIN = path.join(repoRoot, 'dist/packages/storefront-contract-tools/dist/cli/storefront-contract.js');

/** The compiled bin exists and is newer than every workbench source (a build older than them would measure old code). */
function compiledIsCurrent(): boolean {
  if (!existsSync(COMPILED_BIN)) return false;
  const built = statSync(COMPILED_BIN).mtimeMs;
  const newest = (dir: string): number =>
    Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(path.join(dir, e.name)) : e.name.endsWith('.ts') ? statSync(path.join(dir, e.name)).mtimeMs : 0)));
  return built >= newest(path.join(repoRoot, 'workbench'));
}

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
  const cpu = process.cpuUsage();
  const t = process.hrtime.bigint();
  {
    const opened = openStoreDatabase(dataDir);
    const sandbox = await Sandbox.create({ state: { log: new SqliteWorldLog(opened.db, opened.location), writeWith: transactionOf(opened.db) } });
    sandbox.world(stores > 0 ? 'store-0' : 'demo-store');
    sandbox.close();
    opened.close();
  }
  const openSeconds = seconds(t);
  const used = process.cpuUsage(cpu);
  const openCpuSeconds = Number(((used.user + used.system) / 1e6).toFixed(2));
  let listeningSecondsCompiled: number | undefined;
  if (compiledIsCurrent()) {
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

/** `entries` moves over `stores` stores through the sandbox's write path, into the data dir's database. Seconds, and the log's rows after. */
async function writeMoves(dir: string, entries: number, stores: number): Promise<{ writeSeconds: number; logRows: number }> {
  const t = process.hrtime.bigint();
  const opened = openStoreDatabase(dir);
  const log = new SqliteWorldLog(opened.db, opened.location);
  const tx = transactionOf(opened.db);
  stampSchema(opened.db);
  // Interleaved over up to 100 stores (every world held); past that store by store (10 moves each), so that
  // each world is built once and at most the default 64 are held.
  const interleaved = stores <= 100;
  const storeOf = (i: number) => (interleaved ? i % stores : Math.floor(i / Math.ceil(entries / stores)));
  const sandbox = await Sandbox.create({ state: { log, writeWith: (fn) => fn() }, maxWorlds: interleaved ? stores + 1 : undefined });
  try {
    for (let from = 0; from < entries; from += 1000) {
      tx(() => {
        for (let i = from; i < Math.min(entries, from + 1000); i++) sandbox.commit(`store-${storeOf(i)}`, move(i));
      });
      if (from % 100_000 === 0 && from > 0) process.stderr.write(`scaling: storage, ${from} moves written\n`);
    }
    const logRows = opened.db.prepare(`SELECT count(*) FROM world_writes`).pluck().get() as number;
    return { writeSeconds: seconds(t), logRows };
  } finally {
    sandbox.close();
    opened.close();
  }
}

export async function storageRows(): Promise<StorageRow[]> {
  const rows: StorageRow[] = [];
  const STORES = 100;
  for (const entries of [0, 10_000, 100_000, 1_000_000]) {
    process.stderr.write(`scaling: storage, restart after ${entries} stock moves\n`);
    const dir = tempData();
    try {
      const written = entries ? await writeMoves(dir, entries, STORES) : { writeSeconds: 0, logRows: 0 };
      const measured = await restart(dir, entries ? STORES : 0, 1);
      rows.push({ load: 'restart after stock moves (workbench.sqlite)', entries, stores: entries ? STORES : 0, dataDirMB: dirMB(dir), ...written, ...measured });
    } catch (e) {
      rows.push({ load: 'restart after stock moves (workbench.sqlite)', entries, stores: STORES, note: String((e as Error).message).slice(0, 160) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  for (const stores of [100, 1000, 5000]) {
    process.stderr.write(`scaling: storage, ${stores} touched stores\n`);
    const dir = tempData();
    const entries = stores * 10;
    try {
      const written = await writeMoves(dir, entries, stores);
      const reads = Math.min(stores, 500);
      const measured = await restart(dir, stores, reads);
      rows.push({ load: `touched stores (10 moves each), ${reads} read after the restart`, entries, stores, dataDirMB: dirMB(dir), ...written, ...measured });
    } catch (e) {
      rows.push({ load: 'touched stores', entries, stores, note: String((e as Error).message).slice(0, 160) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}
