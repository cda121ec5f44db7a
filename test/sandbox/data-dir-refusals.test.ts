// `mock --data-dir` at a place the file system refuses (a file, a path under a file): one line naming the
// flag, the problem and the fix, exit 2; it was the raw `EEXIST: file already exists, mkdir ...`, exit 1.
// And a data dir a newer workbench wrote (a later format version) is named as such, not as a damaged file
// to restore from a backup (which is what a v3 snapshot header was called).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { mockArgs, mockCli, stopChild } from '../helpers/mock-cli.js';
import { hangGuard } from '../helpers/hang-guard.js';
import { openDatabase } from '../../workbench/store/sqlite.js';
import { APPLICATION_ID, foreignTables } from '../../workbench/store/database.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sfc-data-dir-refusals-'));
const file = path.join(dir, 'a-file');
writeFileSync(file, 'not a directory\n');
const children: ChildProcess[] = [];
afterAll(() => {
  // A refusal that regressed leaves a listening workbench: stopped by handle.
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI to its exit (these refusals come before it listens). */
function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, mockArgs(['--port', '0', '--quiet', ...args]), { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('--data-dir the file system refuses', () => {
  it.each([
    ['a file', file, 'EEXIST'],
    ['a path under a file', path.join(file, 'sub'), 'ENOTDIR'],
  ])('%s: one line, exit 2', async (_, dataDir, code) => {
    const r = await run(['--data-dir', dataDir]);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`--data-dir ${dataDir}: cannot keep data there (${code}`);
    expect(lines[0]).toContain('give a directory this user can create and write, or drop --data-dir');
    expect(r.code).toBe(2);
  }, hangGuard(60_000));

  it('an empty value (an unset variable): one line, exit 2, not a workbench that keeps nothing', async () => {
    const r = await run(['--data-dir=', '--compact-after', '5']);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--data-dir is empty: give the directory to keep the data in (created if missing), or drop --data-dir to run in memory');
    expect(r.code).toBe(2);
  }, hangGuard(60_000));
});

describe('a data dir written by a newer workbench', () => {
  it.each([
    ['its snapshot', 'sandbox.snapshot.jsonl', '{"v":3,"op":"snapshot","generation":5,"at":"2030-01-01T00:00:00.000Z"}\n{"v":3,"op":"end","generation":5,"lines":0}\n'],
    ['its tail', 'sandbox.jsonl', '{"v":3,"op":"begin","generation":0}\n{"v":3,"store":"demo-store","at":"2030-01-01T00:00:00.000Z","op":"put","puts":[]}\n'],
  ])('%s: one line naming the version, exit 2', async (_, name, text) => {
    const dataDir = path.join(dir, `newer-${name}`);
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, name), text);
    const r = await run(['--data-dir', dataDir]);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${name} line 1 is in format version 3, written by a newer workbench (this one reads versions 1 and 2)`);
    expect(lines[0]).not.toContain('restore');
    expect(r.code).toBe(2);
  }, hangGuard(60_000));
});

describe('issue 39: a workbench.sqlite the workbench cannot use', () => {
  it('written by a newer workbench (a later schema): one line naming both schemas, exit 2', async () => {
    const dataDir = path.join(dir, 'newer-schema');
    mkdirSync(dataDir);
    const db = openDatabase(path.join(dataDir, 'workbench.sqlite'));
    db.pragma('user_version = 9');
    db.close();
    const r = await run(['--data-dir', dataDir]);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toEqual([
      `storefront-contract mock: --data-dir ${dataDir}: ${path.join(dataDir, 'workbench.sqlite')} was written by a newer version of the workbench (schema 9; this version knows up to 1): start that version, or move the data directory away to start afresh; see storefront-contract mock --help`,
    ]);
    expect(r.code).toBe(2);
  }, hangGuard(60_000));

  it('not a database at all: one line naming SQLite\'s reason and the fix, exit 2', async () => {
    const dataDir = path.join(dir, 'not-a-database');
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'workbench.sqlite'), 'garbage '.repeat(100));
    const r = await run(['--data-dir', dataDir]);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`--data-dir ${dataDir}: cannot use its database workbench.sqlite (SQLITE_NOTADB: file is not a database); restore it from a backup, free disk space, or move the data directory away to start afresh`);
    expect(r.code).toBe(2);
  }, hangGuard(60_000));
});

describe("another program's SQLite file named workbench.sqlite (found by a probe: SQLite's raw \"no such column\")", () => {
  const cli = mockCli();
  it('an unmarked file with tables of its own (one named like a workbench table): one line naming the file and its tables, exit 2; the file not changed at all', async () => {
    const dataDir = path.join(dir, 'foreign-table');
    mkdirSync(dataDir);
    const file = path.join(dataDir, 'workbench.sqlite');
    const db = openDatabase(file);
    db.exec(`CREATE TABLE world_writes (id INTEGER, blob TEXT); INSERT INTO world_writes VALUES (1, 'theirs')`);
    db.close();
    const bytes = readFileSync(file);
    const r = await run(['--data-dir', dataDir]);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toEqual([
      `storefront-contract mock: --data-dir ${dataDir}: ${file} is a SQLite database of another program (its table world_writes, and no workbench mark): move it away, or give another --data-dir; see storefront-contract mock --help`,
    ]);
    expect(r.code).toBe(2);
    expect(readFileSync(file).equals(bytes), 'the same bytes: no VACUUM, no WAL, no table added').toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
    const after = openDatabase(file);
    expect(after.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all()).toEqual(['world_writes']);
    expect(after.prepare('SELECT * FROM world_writes').all()).toEqual([{ id: 1, blob: 'theirs' }]);
    after.close();
    expect(existsSync(path.join(dataDir, 'workbench.lock')), 'no lock left by a refused start').toBe(false);
  }, hangGuard(60_000));

  it("another program's application_id: refused before anything is written into it", async () => {
    const dataDir = path.join(dir, 'foreign-application');
    mkdirSync(dataDir);
    const db = openDatabase(path.join(dataDir, 'workbench.sqlite'));
    db.exec('CREATE TABLE notes (id INTEGER)');
    db.pragma('application_id = 1234');
    db.close();
    const r = await run(['--data-dir', dataDir]);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toEqual([
      `storefront-contract mock: --data-dir ${dataDir}: ${path.join(dataDir, 'workbench.sqlite')} is a SQLite database of another program (application_id 1234, not the workbench's ${APPLICATION_ID}): move it away, or give another --data-dir; see storefront-contract mock --help`,
    ]);
    expect(r.code).toBe(2);
    const after = openDatabase(path.join(dataDir, 'workbench.sqlite'));
    expect(after.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all()).toEqual(['notes']);
    after.close();
  }, hangGuard(60_000));

  it("the workbench's own file is stamped with its application_id, and opens again; stopped as soon as it says it listens, it closes cleanly (lock released)", async () => {
    const dataDir = path.join(dir, 'stamped');
    const first = await cli.start(['--port', '0', '--data-dir', dataDir], 'world and back office');
    expect(await stopChild(first.child), 'SIGTERM right after the banner: exit 0, not death by the signal').toBe(0);
    expect(existsSync(path.join(dataDir, 'workbench.lock')), 'released').toBe(false);
    const db = openDatabase(path.join(dataDir, 'workbench.sqlite'));
    expect(Number(db.pragma('application_id'))).toBe(APPLICATION_ID);
    db.close();
    const again = await cli.start(['--port', '0', '--data-dir', dataDir], 'world and back office');
    expect(await stopChild(again.child)).toBe(0);
  }, hangGuard(90_000));

  it('foreignTables: only the errors a foreign table gives, only for a file', () => {
    for (const message of ['no such column: store_id', 'table world_writes has no column named payload', 'no such table: main.world_writes']) {
      expect(foreignTables('/d/workbench.sqlite', new Error(message))?.message).toBe(`/d/workbench.sqlite holds tables this workbench did not make (${message}): another program's file, or one changed by hand; move it away, or give another --data-dir`);
    }
    expect(foreignTables(':memory:', new Error('no such column: store_id'))).toBeUndefined();
    expect(foreignTables('/d/workbench.sqlite', new Error('database is locked'))).toBeUndefined();
    expect(foreignTables('/d/workbench.sqlite', 'no such column: x')).toBeUndefined();
  });
});

describe('one workbench serves a data directory (found by a probe: a second one on it lost acknowledged writes)', () => {
  const cli = mockCli();
  const bodyOf = (stock: number) => JSON.stringify({ product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C', stock_quantity: stock });

  it('a second start on a served directory is one line naming the holder, exit 2; after a kill -9 the next start takes the directory over', async () => {
    const dataDir = path.join(dir, 'served');
    const first = await cli.start(['--port', '0', '--data-dir', dataDir], 'world and back office');
    const moved = await fetch(`${first.url}/__simulator/stores/lock-store/inventory`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyOf(7) });
    expect(moved.status).toBe(200);

    const second = await run(['--data-dir', dataDir]);
    const lines = second.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`--data-dir ${dataDir}: ${dataDir} is served by another workbench (pid ${first.child.pid})`);
    expect(lines[0]).toContain('give this one another --data-dir');
    expect(second.code).toBe(2);

    first.child.kill('SIGKILL');
    await first.exited;
    expect(readFileSync(path.join(dataDir, 'workbench.lock'), 'utf8')).toContain(String(first.child.pid));
    const third = await cli.start(['--port', '0', '--data-dir', dataDir], 'world and back office');
    try {
      const world = (await (await fetch(`${third.url}/__simulator/stores/lock-store/world/products`)).json()) as Array<{ id: string; variants: Array<{ id: string; inventory: Array<{ stock_quantity: number }> }> }>;
      const stock = world.find((p) => p.id === 'prd_7Q2K9X')!.variants.find((v) => v.id === 'var_4M8T2C')!.inventory.reduce((n, lot) => n + lot.stock_quantity, 0);
      expect(stock, 'the acknowledged write survived the kill').toBe(7);
      expect(readFileSync(path.join(dataDir, 'workbench.lock'), 'utf8')).toContain(String(third.child.pid));
    } finally {
      expect(await stopChild(third.child)).toBe(0);
    }
    expect(existsSync(path.join(dataDir, 'workbench.lock')), 'released at a clean stop').toBe(false);
  }, hangGuard(90_000));

  it('a workbench.sqlite that is a symbolic link is refused in one line, and what it points at is left as it was', async () => {
    const dataDir = path.join(dir, 'linked');
    mkdirSync(dataDir);
    const victim = path.join(dir, 'victim.txt');
    writeFileSync(victim, 'not yours\n', { mode: 0o644 });
    chmodSync(victim, 0o644);
    symlinkSync(victim, path.join(dataDir, 'workbench.sqlite'));
    const r = await run(['--data-dir', dataDir]);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`workbench.sqlite is a symbolic link`);
    expect(r.code).toBe(2);
    expect((statSync(victim).mode & 0o777).toString(8)).toBe('644');
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n');
    expect(existsSync(path.join(dataDir, 'workbench.lock')), 'no lock left by a refused start').toBe(false);
  }, hangGuard(60_000));
});
