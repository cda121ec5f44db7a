// A data directory opened for the workbench: `<dataDir>/workbench.sqlite` (../store/database.ts), after
// the files of 0.2.x, if any, were taken into it, once:
//
//   simulator.sqlite                        the webhook simulator's database: renamed workbench.sqlite (its
//                                           subscriptions, events and pending retries stay as they are)
//   sandbox.jsonl, sandbox.snapshot.jsonl   the sandbox's journal (versions 1 and 2): each store's writes,
//                                           folded, and the identities, into the world log's tables
//   clocks.json                             every store's clock: the settings row `clocks`
//
// The journal and the clocks are read by the 0.2.x readers (their checks and messages: a broken file stops
// the start with the file, the line and the fix) and written in one transaction with a settings row
// `upgraded-from` naming what was taken; then the old files are moved into `<dataDir>/0.2-files/` (kept,
// not deleted: the way back is to start 0.2.x on them). A crash between the commit and the move finds that
// row at the next start and only moves the files. Processes starting at once on one directory take turns
// (a lock directory, `.upgrading`), so the upgrade runs once. One line says what was done.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { Clocks, clocksFile } from '../clock/clocks.js';
import { Fold, Journal, JOURNAL_FILE, SNAPSHOT_FILE, type RecordCheck } from '../sandbox/journal.js';
import { DATABASE_FILE, openPrivate, openStoreDatabase, type StoreDatabase } from '../store/database.js';
import { setting } from '../store/settings.js';
import { SqliteWorldLog } from '../store/world-log.js';

/** The webhook simulator's file of 0.2.x. */
export const SIMULATOR_FILE_0_2 = 'simulator.sqlite';
export const CLOCKS_FILE_0_2 = 'clocks.json';
/** Where the files of 0.2.x are moved once taken in. */
export const BACKUP_DIR_0_2 = '0.2-files';
/** The settings row that holds the clocks (read by createWorkbench through Clocks' ClockKeeping). */
export const CLOCKS_SETTING = 'clocks';
const UPGRADED_SETTING = 'upgraded-from';
const LOCK = '.upgrading';
/** A lock older than this was left by a process killed during an upgrade: taken over. */
const STALE_LOCK_MS = 60_000;
const LOCK_WAIT_MS = 30_000;

export interface OpenDataDirOptions {
  /** Start-up notes (the upgrade's line). Default: stderr. */
  log?: (line: string) => void;
  /**
   * Take in the sandbox's journal of 0.2.x, checking each record with this (the fixture schemas). Unset:
   * the journal is left where it is (a simulator started alone), for the next start of the sandbox.
   */
  journal?: { check?: RecordCheck };
  /** How long to wait for another process's upgrade of the same directory (default 30 s; tests lower it). */
  lockWaitMs?: number;
}

/** Opens the data directory's one database, taking in the files of 0.2.x first (once). */
export function openDataDir(dataDir: string, options: OpenDataDirOptions = {}): StoreDatabase {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Stryker disable next-line ConditionalExpression: the fast path only skips the lock; the locked path opens the same database and finds nothing to take
  if (!hasLegacyFiles(dataDir, options)) return openStoreDatabase(dataDir);
  return withLock(dataDir, options.lockWaitMs ?? LOCK_WAIT_MS, () => {
    const taken: string[] = [];
    const file = path.join(dataDir, DATABASE_FILE);
    const simulatorFile = path.join(dataDir, SIMULATOR_FILE_0_2);
    if (!existsSync(file) && existsSync(simulatorFile)) {
      // Its WAL folded into the file first, so the one file is the whole database when renamed.
      const old = openPrivate(simulatorFile);
      old.pragma('wal_checkpoint(TRUNCATE)');
      old.close();
      renameSync(simulatorFile, file);
      for (const f of ['-wal', '-shm']) rmSync(`${simulatorFile}${f}`, { force: true });
      taken.push(`${SIMULATOR_FILE_0_2} (renamed ${DATABASE_FILE})`);
    } else if (existsSync(simulatorFile)) {
      log(`workbench: ${simulatorFile} (0.2.x) is left as it is: ${DATABASE_FILE} exists already beside it; move one of them away`);
    }
    const opened = openStoreDatabase(dataDir);
    try {
      taken.push(...takeIn(dataDir, opened, options));
      if (taken.length) log(`workbench: upgraded the data directory ${dataDir} from 0.2.x into ${DATABASE_FILE}: ${taken.join('; ')}; the old files are in ${path.join(dataDir, BACKUP_DIR_0_2)}`);
      return opened;
    } catch (e) {
      opened.close();
      throw e;
    }
  });
}

/** Whether the directory holds a sandbox journal of 0.2.x (its record check is worth compiling only then). */
export function holdsJournal0_2(dataDir: string): boolean {
  return [JOURNAL_FILE, SNAPSHOT_FILE].some((name) => existsSync(path.join(dataDir, name)));
}

function hasLegacyFiles(dataDir: string, options: OpenDataDirOptions): boolean {
  const names = options.journal ? [SIMULATOR_FILE_0_2, CLOCKS_FILE_0_2, JOURNAL_FILE, SNAPSHOT_FILE] : [SIMULATOR_FILE_0_2, CLOCKS_FILE_0_2];
  return names.some((name) => existsSync(path.join(dataDir, name)));
}

/**
 * The journal and the clocks of 0.2.x, in one transaction, then moved away. What was taken, for the line. The
 * settings row `upgraded-from` names every file taken in so far: a file it names is never read again (a start
 * that stopped between the commit and the move only moves it), and one it does not name is taken in by the
 * next start that can (the journal waits for a start with the sandbox).
 */
function takeIn(dataDir: string, opened: StoreDatabase, options: OpenDataDirOptions): string[] {
  const { db, location } = opened;
  const upgraded = setting(db, location, UPGRADED_SETTING);
  const done = new Set<string>((JSON.parse(upgraded.read() ?? '{"files":[]}') as { files: string[] }).files);
  const present = (name: string) => existsSync(path.join(dataDir, name));
  const journalFiles = options.journal && !done.has(JOURNAL_FILE) && [JOURNAL_FILE, SNAPSHOT_FILE].some(present) ? [JOURNAL_FILE, SNAPSHOT_FILE] : [];
  const clocksFiles = !done.has(CLOCKS_FILE_0_2) && present(CLOCKS_FILE_0_2) ? [CLOCKS_FILE_0_2] : [];
  const taken: string[] = [];
  if (journalFiles.length || clocksFiles.length) {
    // Read (and checked) before anything is written: a broken file stops the start with the 0.2.x reader's line.
    const clocksKept = clocksFile(path.join(dataDir, CLOCKS_FILE_0_2));
    const clocksText = clocksFiles.length ? clocksKept.read() : undefined;
    // Checked by Clocks' own reading of the text just read (the same messages as at a 0.2.x start).
    // Stryker disable next-line ConditionalExpression: without a text Clocks.open reads nothing and checks nothing
    if (clocksText !== undefined) Clocks.open({ kept: { ...clocksKept, read: () => clocksText } });
    const journal = journalFiles.length ? Journal.open(dataDir, { check: options.journal?.check, log: () => {} }) : undefined;
    try {
      db.transaction(() => {
        if (journal) {
          const log = new SqliteWorldLog(db, location);
          for (const identity of journal.identities) log.putIdentity(identity.access_token_sha256, identity.store_id, JSON.stringify(identity));
          const identities = new Set(journal.identities.map((i) => i.access_token_sha256)).size;
          const at = new Date().toISOString();
          let stores = 0;
          for (const store of journal.storeIds()) {
            const fold = new Fold();
            for (const entry of journal.entries(store)) fold.add(entry);
            log.replace(store, fold.entries(store, at).map((e) => JSON.stringify(e)));
            stores++;
          }
          taken.push(`the sandbox's journal (${stores} store${stores === 1 ? '' : 's'} with writes, ${identities} identit${identities === 1 ? 'y' : 'ies'})`);
        }
        if (clocksText !== undefined) {
          setting(db, location, CLOCKS_SETTING).write(clocksText);
          taken.push(CLOCKS_FILE_0_2);
        }
        for (const f of [...journalFiles, ...clocksFiles]) done.add(f);
        upgraded.write(JSON.stringify({ from: '0.2', at: new Date().toISOString(), files: [...done] }));
      }).immediate();
    } finally {
      journal?.close();
    }
  }
  // Taken in (now, or by a start that stopped before this): moved away, so that nothing reads them again.
  const backup = path.join(dataDir, BACKUP_DIR_0_2);
  for (const name of done) {
    if (!present(name)) continue;
    mkdirSync(backup, { recursive: true, mode: 0o700 });
    renameSync(path.join(dataDir, name), path.join(backup, name));
  }
  return taken;
}

function withLock<T>(dataDir: string, waitMs: number, fn: () => T): T {
  const lock = path.join(dataDir, LOCK);
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const age = lockAge(lock);
      if (age === undefined) continue; // released meanwhile
      // Stryker disable next-line EqualityOperator: a 1 ms edge of a one-minute guess at a lock left by a killed process
      if (age > STALE_LOCK_MS) {
        // Stryker disable next-line BooleanLiteral: force only matters if another process took the stale lock over in the same millisecond
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      // Stryker disable next-line EqualityOperator: a 1 ms edge of the wait
      if (Date.now() > until) throw new Error(`${lock}: another process has been upgrading this data directory for ${Math.round(age / 1000)} s; wait for it, or remove ${lock} if no workbench runs on it`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  try {
    return fn();
  } finally {
    // Stryker disable next-line BooleanLiteral: the lock is this process's own, there to remove
    rmSync(lock, { recursive: true, force: true });
  }
}

// Stryker disable BlockStatement: a lock released between the failed mkdir and this stat; its catch is reached only in that race
/** How old the lock is (ms), or undefined when it was released meanwhile. */
function lockAge(lock: string): number | undefined {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return undefined;
  }
}
// Stryker restore BlockStatement
