// workbench/upgrade/ in process, on data directories made here with 0.2.x's own writers (the journal's
// Journal.append, clocks.json, an old simulator file): what is taken in, the line that says so (singular
// and plural), the settings row naming every file taken, a start that stopped between its commit and the
// move of the files, the journal left for a later start with the sandbox when the simulator starts alone,
// and the lock processes take turns with (a stale one taken over, a live one waited for, then named).
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readlinkSync } from 'node:fs';
import { journalRecordCheck } from '../../workbench/sandbox/fixtures.js';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { storedSetting, storeRows } from '../helpers/store-files.js';
import { mountCapability, mountTmpfs } from '../helpers/tmpfs.js';
import { Journal, type Entry } from '../../workbench/sandbox/journal.js';
import { openDatabase } from '../../workbench/store/sqlite.js';
import { APPLICATION_ID } from '../../workbench/store/database.js';
import { holdsJournal0_2, openDataDir } from '../../workbench/upgrade/index.js';

const { defer, tempDir } = cleanupAfterEach();
const at = '2026-11-01T00:00:00.000Z';
const lot = (n: number) => ({ lot_batch: `L${n}`, manufacturer: 'M', mfg_date: '2026-01-01', exp_date: '2028-01-01', stock_quantity: n });
const move = (store: string, n: number): Entry => ({ v: 2, store, at, op: 'put', puts: [{ kind: 'stock', product_id: 'prd_1', variant_id: 'var_1', inventory: [lot(n)] }] });
const identity = (store: string, digit: string): Entry => ({
  v: 2,
  store,
  at,
  op: 'identity',
  identity: {
    store_id: store,
    access_token_sha256: digit.repeat(64),
    refresh_token_sha256: 'f'.repeat(64),
    user: { id: `usr_${digit}`, is_anonymous: true, is_logged_in: false, first_name: null, last_name: null, phone: null, email: null, is_email_verified: false, is_phone_verified: false, profile_image_url: null, created_at: at, modified_at: at },
  },
});
const CLOCKS = JSON.stringify({ v: 1, clocks: { a: { kind: 'frozen', at: Date.parse('2027-01-01T00:00:00Z') } } });

/** A 0.2.x data directory: a journal of two stores (a reset store left out) and two identities, clocks.json. */
async function legacyDir(): Promise<string> {
  const dir = await tempDir('upgrade-unit-');
  const journal = Journal.open(dir, { log: () => {} });
  for (let i = 0; i < 3; i++) journal.append(move('a', i));
  journal.append(move('b', 7));
  journal.append(move('gone', 1));
  journal.append({ v: 2, store: 'gone', at, op: 'reset' });
  journal.append(identity('a', '1'));
  journal.append(identity('b', '2'));
  journal.close();
  writeFileSync(path.join(dir, 'clocks.json'), CLOCKS, { mode: 0o600 });
  return dir;
}

/** Files under `dir` this process holds open (Linux: /proc/self/fd). */
function openFilesUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(`${dir}/`) && !target.includes('workbench.sqlite'));
}

function open(dir: string, options: Parameters<typeof openDataDir>[1] = {}): string[] {
  const lines: string[] = [];
  openDataDir(dir, { log: (l) => lines.push(l), journal: {}, ...options }).close();
  return lines;
}

describe('the upgrade from 0.2.x, in process', () => {
  it('takes in the journal (plural: 2 stores, 2 identities) and clocks.json in one go, names each file in the settings row, and moves them aside', async () => {
    const dir = await legacyDir();
    const lines = open(dir);
    expect(lines).toEqual([`workbench: upgraded the data directory ${dir} from 0.2.x into workbench.sqlite: the sandbox's journal (2 stores with writes, 2 identities); clocks.json; the old files are in ${path.join(dir, '0.2-files')}`]);
    expect(readdirSync(dir).sort()).toEqual(['0.2-files', 'workbench.sqlite', 'workbench.sqlite-shm', 'workbench.sqlite-wal'].filter((f) => existsSync(path.join(dir, f))));
    expect(readdirSync(path.join(dir, '0.2-files')).sort()).toEqual(['clocks.json', 'sandbox.jsonl']);
    expect(storedSetting(dir, 'clocks')).toEqual(JSON.parse(CLOCKS));
    expect(storedSetting(dir, 'upgraded-from')).toMatchObject({ from: '0.2' });
    expect((storedSetting(dir, 'upgraded-from') as { files: string[] }).files.sort()).toEqual(['clocks.json', 'sandbox.jsonl', 'sandbox.snapshot.jsonl']);
    // The 0.2.x reader's files are closed once taken in.
    expect(openFilesUnder(dir)).toEqual([]);
    const stores = storeRows<{ store_id: string; entry: string }>(dir, 'SELECT store_id, entry FROM world_writes ORDER BY seq');
    expect([...new Set(stores.map((r) => r.store_id))].sort()).toEqual(['a', 'b']);
    // Folded: one state entry a store, holding its last lots and its count of writes.
    expect(stores.map((r) => JSON.parse(r.entry)).map((e) => [e.store, e.op, e.changes])).toEqual([
      ['a', 'state', 3],
      ['b', 'state', 1],
    ]);
    expect(storeRows(dir, 'SELECT access_token_sha256 FROM identities ORDER BY 1').map((r) => r.access_token_sha256)).toEqual(['1'.repeat(64), '2'.repeat(64)]);
    // Again: nothing to do, no line.
    expect(open(dir)).toEqual([]);
  });

  it('one store and one identity: the singular', async () => {
    const dir = await tempDir('upgrade-one-');
    const journal = Journal.open(dir, { log: () => {} });
    journal.append(move('a', 1));
    journal.append(identity('a', '1'));
    journal.close();
    expect(open(dir)[0]).toContain(": the sandbox's journal (1 store with writes, 1 identity); the old files");
  });

  it('a simulator started alone takes the clocks and leaves the journal, which the next start with the sandbox takes in', async () => {
    const dir = await legacyDir();
    expect(open(dir, { journal: undefined })[0]).toContain('into workbench.sqlite: clocks.json; the old files');
    expect(existsSync(path.join(dir, 'sandbox.jsonl'))).toBe(true);
    expect(storeRows(dir, 'SELECT name FROM sqlite_master WHERE name = ?', 'world_writes')).toEqual([]);
    expect(open(dir)[0]).toContain(": the sandbox's journal (2 stores with writes, 2 identities); the old files");
    expect(existsSync(path.join(dir, 'sandbox.jsonl'))).toBe(false);
    expect(readdirSync(path.join(dir, '0.2-files')).sort()).toEqual(['clocks.json', 'sandbox.jsonl']);
    expect((storedSetting(dir, 'upgraded-from') as { files: string[] }).files.sort()).toEqual(['clocks.json', 'sandbox.jsonl', 'sandbox.snapshot.jsonl']);
  });

  it('a start that stopped between the commit and the move: the files named by the row are moved, not read again', async () => {
    const dir = await legacyDir();
    const db = openDatabase(path.join(dir, 'workbench.sqlite'));
    // Marked, as the start that made it marked it before its first table (store/database.ts).
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.exec(`CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    db.prepare(`INSERT INTO settings VALUES ('upgraded-from', ?)`).run(JSON.stringify({ from: '0.2', at, files: ['sandbox.jsonl', 'sandbox.snapshot.jsonl', 'clocks.json'] }));
    db.close();
    expect(open(dir)).toEqual([]);
    expect(readdirSync(path.join(dir, '0.2-files')).sort()).toEqual(['clocks.json', 'sandbox.jsonl']);
    expect(storeRows(dir, 'SELECT name FROM sqlite_master WHERE name = ?', 'world_writes')).toEqual([]);
    expect(storedSetting(dir, 'clocks')).toBeUndefined();
    // The row is as that start left it: nothing was taken in again.
    expect(storedSetting(dir, 'upgraded-from')).toEqual({ from: '0.2', at, files: ['sandbox.jsonl', 'sandbox.snapshot.jsonl', 'clocks.json'] });
  });

  it('a simulator.sqlite in rollback-journal mode (no -wal, no -shm beside it) is renamed all the same', async () => {
    const dir = await tempDir('upgrade-rollback-');
    // An empty file is an empty SQLite database in rollback-journal mode: nothing beside it after it is opened.
    writeFileSync(path.join(dir, 'simulator.sqlite'), '');
    expect(open(dir)).toEqual([`workbench: upgraded the data directory ${dir} from 0.2.x into workbench.sqlite: simulator.sqlite (renamed workbench.sqlite); the old files are in ${path.join(dir, '0.2-files')}`]);
    expect(existsSync(path.join(dir, 'simulator.sqlite'))).toBe(false);
    expect(existsSync(path.join(dir, 'workbench.sqlite'))).toBe(true);
  });

  it('simulator.sqlite beside an existing workbench.sqlite is left as it is, with a line saying so', async () => {
    const dir = await tempDir('upgrade-both-');
    openDataDir(dir).close();
    writeFileSync(path.join(dir, 'simulator.sqlite'), '');
    const lines = open(dir);
    expect(lines).toEqual([`workbench: ${path.join(dir, 'simulator.sqlite')} (0.2.x) is left as it is: workbench.sqlite exists already beside it; move one of them away`]);
    expect(existsSync(path.join(dir, 'simulator.sqlite'))).toBe(true);
  });

  it('a broken clocks.json stops the upgrade before anything is written, naming the file', async () => {
    const dir = await legacyDir();
    writeFileSync(path.join(dir, 'clocks.json'), '{"v":1,"clocks":{"a":{"kind":"frozen","at":"soon"}}}');
    expect(() => open(dir)).toThrow(`${path.join(dir, 'clocks.json')}: store "a": "at" is "soon"`);
    expect(existsSync(path.join(dir, 'sandbox.jsonl'))).toBe(true);
    expect(storedSetting(dir, 'upgraded-from')).toBeUndefined();
  });

  it('takes turns: a stale lock (left by a killed process) is taken over, a live one is waited for and then named', async () => {
    const dir = await legacyDir();
    const lock = path.join(dir, '.upgrading');
    mkdirSync(lock);
    const old = (Date.now() - 120_000) / 1000;
    utimesSync(lock, old, old);
    expect(open(dir)[0]).toContain('upgraded the data directory');
    expect(existsSync(lock)).toBe(false);

    const again = await legacyDir();
    const live = path.join(again, '.upgrading');
    mkdirSync(live);
    const started = Date.now();
    expect(() => open(again, { lockWaitMs: 300 })).toThrow(`${live}: another process has been upgrading this data directory for 0 s; wait for it, or remove ${live} if no workbench runs on it`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(existsSync(path.join(again, 'sandbox.jsonl'))).toBe(true);
    expect(readFileSync(path.join(again, 'clocks.json'), 'utf8')).toBe(CLOCKS);
  });

  it('its line goes to stderr unless a log is given', async () => {
    const dir = await legacyDir();
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      openDataDir(dir, { journal: {} }).close();
    } finally {
      spy.mockRestore();
    }
    expect(written.filter((l) => l.includes('upgraded the data directory'))).toEqual([expect.stringMatching(/^workbench: upgraded the data directory .*0\.2-files\n$/)]);
  });

  it('a journal record the fixture schemas refuse stops the upgrade when the check is given (the workbench gives it), and passes without one', async () => {
    const dir = await tempDir('upgrade-check-');
    const journal = Journal.open(dir, { log: () => {} });
    journal.append({ v: 2, store: 'a', at, op: 'put', puts: [{ kind: 'customer', record: { id: 'cst_X' } as never }] });
    journal.close();
    const check = await journalRecordCheck();
    expect(() => open(dir, { journal: { check } })).toThrow(/sandbox\.jsonl line 1 is a sandbox journal entry of the wrong shape: field puts\[0\]\.record\.\w+ is required/);
    expect(existsSync(path.join(dir, 'sandbox.jsonl'))).toBe(true);
    expect(open(dir)[0]).toContain("the sandbox's journal (1 store with writes, 0 identities)");
  });

  it('a lock that cannot be made for another reason than being taken (a file system out of inodes) is an error, not a wait', async (ctx) => {
    const mount = mountCapability();
    if (!mount.ok) ctx.skip(mount.why);
    // Inodes for the root, clocks.json and nothing more: the lock directory cannot be made (ENOSPC).
    const disk = mountTmpfs('size=256k,nr_inodes=2', defer);
    expect(disk, 'mount -t tmpfs failed though the probe could mount one').toBeDefined();
    writeFileSync(path.join(disk!, 'clocks.json'), CLOCKS);
    expect(() => openDataDir(disk!, { log: () => {}, lockWaitMs: 60_000 })).toThrow(/ENOSPC.*\.upgrading/);
  });

  it('holdsJournal0_2 says whether either journal file is there (the workbench compiles the record check only then)', async () => {
    const dir = await tempDir('upgrade-holds-');
    expect(holdsJournal0_2(dir)).toBe(false);
    writeFileSync(path.join(dir, 'clocks.json'), CLOCKS);
    expect(holdsJournal0_2(dir)).toBe(false);
    writeFileSync(path.join(dir, 'sandbox.snapshot.jsonl'), '');
    expect(holdsJournal0_2(dir)).toBe(true);
    const tail = await tempDir('upgrade-holds-tail-');
    writeFileSync(path.join(tail, 'sandbox.jsonl'), '');
    expect(holdsJournal0_2(tail)).toBe(true);
  });

  it('a directory without 0.2.x files opens at once: no line, no lock', async () => {
    const dir = await tempDir('upgrade-none-');
    expect(open(dir)).toEqual([]);
    expect(readdirSync(dir).filter((f) => !f.startsWith('workbench.sqlite'))).toEqual([]);
  });
});
