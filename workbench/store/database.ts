// The workbench's one database: every store's state in one SQLite file, `<dataDir>/workbench.sqlite` (or
// in memory without a data directory). The sandbox's world writes and identities (world-log.ts), every
// store's clock (settings.ts), the webhook subscriptions, events and delivery attempts
// (../simulator/store.ts) are tables of this one file, on one connection, so a write and the events it
// raises commit in one transaction (a transactional outbox; ../sandbox/sandbox.ts `commit`).
//
// Durability is SQLite's: WAL mode with synchronous = NORMAL. A committed transaction survives the
// process being killed (kill -9) and a torn write is never seen (the WAL's checksums); a power cut may
// lose the last commits but never corrupts the file. A full disk fails the transaction (SQLITE_FULL), which
// rolls back whole; the caller answers 503 (storeFailure).
//
// The file is the owner's alone: the directory is created 0700, the file (and SQLite's -wal, -shm and
// -journal, which take its mode) 0600 before SQLite opens it. Its schema version is `PRAGMA user_version`:
// a file written by a newer version of the workbench is refused with one line (StoreVersionError).
//
// One workbench serves a data directory at a time (`workbench.lock`, `holdDataDir`, taken by the workbench's
// composition and released when its store closes): a workbench keeps its stores' worlds and clocks in
// memory over the file, so a second one on the same directory would answer from its own copy and lose the
// other's acknowledged writes. A second start is refused with one line (DataDirRefused) naming the
// holder's pid; a lock whose process is gone (kill -9) is taken over. The webhook simulator's own tables
// can be shared (their claims are exclusive: ../simulator/store.ts), which its tests use; a team that needs
// many processes on one world uses a database server (issue 40), not a shared file.
import { randomUUID } from 'node:crypto';
import { chmodSync, closeSync, existsSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, type Database } from './sqlite.js';

export type { Database, Statement } from './sqlite.js';

/** The file every store's state is kept in, inside `--data-dir`. */
export const DATABASE_FILE = 'workbench.sqlite';
/**
 * The schema this version writes (`PRAGMA user_version`). 0: a new file, or the webhook simulator's own
 * file of 0.2.x (`simulator.sqlite`, renamed by ../upgrade/). 1: one database for every part.
 */
export const SCHEMA_VERSION = 1;

/**
 * `PRAGMA application_id` of the workbench's database ("SFWB"): a SQLite file with another id is another
 * program's, and is refused before anything is written into it. 0: a file of a version before the id
 * (0.2.x, or 0.3 before it was set), stamped once its tables are checked.
 */
export const APPLICATION_ID = 0x53465742;

/** The tables of 0.2.x's simulator.sqlite, the one unmarked file the workbench takes in (a fixed fact of that release). */
const TABLES_0_2: ReadonlySet<string> = new Set(['subscriptions', 'events', 'attempts', 'pruned']);

/** A data directory written by a newer workbench (its schema is one this version does not know). */
export class StoreVersionError extends Error {
  readonly name = 'StoreVersionError';
}

/** A data directory this workbench may not open: another workbench serves it, or its database is a symbolic link. */
export class DataDirRefused extends Error {
  readonly name = 'DataDirRefused';
}

/** Held by the workbench serving the data directory: `<pid> <token>`. */
export const LOCK_FILE = 'workbench.lock';

/** True while a process with this pid exists (EPERM: it exists, another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data directory for this workbench, or refuses: the lock file is created whole (written under
 * another name, then hard-linked into place, which fails if one exists), so a reader never sees it half
 * written. A lock whose process is gone is moved aside and taken; returns the release.
 */
export function holdDataDir(dataDir: string): () => void {
  if (mkdirSync(dataDir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dataDir, 0o700);
  const lock = path.join(dataDir, LOCK_FILE);
  const token = `${process.pid} ${randomUUID()}`;
  const mine = `${lock}.${randomUUID()}`;
  writeFileSync(mine, `${token}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(mine, lock);
        return () => {
          try {
            if (readFileSync(lock, 'utf8').trim() === token) rmSync(lock, { force: true });
          } catch {
            // gone already: nothing to release
          }
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      let holder: string;
      try {
        holder = readFileSync(lock, 'utf8').trim();
      } catch {
        continue; // released meanwhile: try again
      }
      const pid = Number(holder.split(' ')[0]);
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
        throw new DataDirRefused(
          `${dataDir} is served by another workbench (pid ${pid}${pid === process.pid ? ', this process' : ''}): two on one data directory would each answer from their own copy of the stores and lose each other's writes; stop it, or give this one another --data-dir (a team sharing one world: a database server)`,
        );
      }
      // Its process is gone (killed): moved aside under a name of our own, then dropped, unless another
      // start took it over in between, whose lock goes back.
      const aside = `${lock}.stale.${randomUUID()}`;
      try {
        renameSync(lock, aside);
      } catch {
        continue;
      }
      if (readFileSync(aside, 'utf8').trim() === holder) rmSync(aside, { force: true });
      else renameSync(aside, lock);
    }
    throw new DataDirRefused(`${dataDir}: could not take ${LOCK_FILE} (other workbenches starting on it at once); start again`);
  } finally {
    rmSync(mine, { force: true });
  }
}

export interface StoreDatabase {
  db: Database;
  /** The file, or `:memory:`. */
  location: string;
  persistent: boolean;
  close(): void;
}

/** The store, whose close() also releases what `release` holds (the data directory's lock). */
export function releasedOnClose(store: StoreDatabase, release: () => void): StoreDatabase {
  return {
    ...store,
    close: () => {
      try {
        store.close();
      } finally {
        release();
      }
    },
  };
}

/** Opens (creating if needed) `<dataDir>/workbench.sqlite`; no dataDir = an in-memory database. */
export function openStoreDatabase(dataDir?: string): StoreDatabase {
  if (!dataDir || dataDir === ':memory:') return wrap(configure(openDatabase(':memory:'), ':memory:'), ':memory:');
  if (mkdirSync(dataDir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dataDir, 0o700);
  const file = path.join(dataDir, DATABASE_FILE);
  return wrap(configure(openPrivate(file), file), file);
}

/** Opens a SQLite file whose files are 0600 before SQLite opens it (also one left by an older run). */
export function openPrivate(file: string): Database {
  // A symbolic link would have the modes below (and SQLite's writes) land on whatever it points at.
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    if (lstatSync(f, { throwIfNoEntry: false })?.isSymbolicLink()) throw new DataDirRefused(`${f} is a symbolic link: the workbench keeps its data only in files of the data directory itself; replace it with the file, or give another --data-dir`);
  }
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) if (existsSync(f)) chmodSync(f, 0o600);
  return openDatabase(file);
}

function wrap(db: Database, location: string): StoreDatabase {
  return { db, location, persistent: location !== ':memory:', close: () => db.close() };
}

function configure(db: Database, location: string): Database {
  try {
    const application = Number(db.pragma('application_id'));
    if (application !== 0 && application !== APPLICATION_ID) {
      throw new DataDirRefused(`${location} is a SQLite database of another program (application_id ${application}, not the workbench's ${APPLICATION_ID}): move it away, or give another --data-dir`);
    }
    const version = Number(db.pragma('user_version'));
    // Unstamped and unversioned: a new file, the webhook simulator's file of 0.2.x (renamed by ../upgrade/),
    // or another program's. Told apart by its tables before anything (a pragma, a table) changes the file.
    if (application === 0 && version === 0) {
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[];
      const foreign = tables.filter((t) => !TABLES_0_2.has(t));
      if (foreign.length) throw new DataDirRefused(`${location} is a SQLite database of another program (its table${foreign.length === 1 ? '' : 's'} ${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? ', ...' : ''}, and no workbench mark): move it away, or give another --data-dir`);
      // A new file is marked the workbench's before its first table: a first start killed half-way leaves a marked file.
      if (tables.length === 0 && location !== ':memory:') db.pragma(`application_id = ${APPLICATION_ID}`);
    }
    if (version > SCHEMA_VERSION) {
      throw new StoreVersionError(
        `${location} was written by a newer version of the workbench (schema ${version}; this version knows up to ${SCHEMA_VERSION}): start that version, or move the data directory away to start afresh`,
      );
    }
    // Deleted and overwritten content (a rotated or deleted signing secret, custom header values) is
    // overwritten with zeros in the file, not just unlinked from the b-tree (../simulator/store.ts `scrub`).
    db.pragma('secure_delete = ON');
    // Pages the retention frees go back to the file system in bounded steps (PRAGMA incremental_vacuum),
    // not by a VACUUM that rewrites the whole file. Set before the first table exists; a file made by an
    // older version is converted once.
    const hasTables = (db.prepare(`SELECT count(*) AS n FROM sqlite_master`).get() as { n: number }).n > 0;
    db.pragma('auto_vacuum = INCREMENTAL');
    if (hasTables && db.pragma('auto_vacuum') !== 2) {
      try {
        db.exec('VACUUM');
      } catch {
        // Another process holds the file (a shared --data-dir): SQLite still reuses freed pages; the file
        // just does not shrink. The next open tries again.
      }
    }
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a process crash (kill -9) loses nothing committed; a power cut may lose the last
    // commits but never corrupts the file.
    db.pragma('synchronous = NORMAL');
    // After a checkpoint the -wal file is cut back to 4 MB (it otherwise stays at its largest size).
    db.pragma(`journal_size_limit = ${4 * 1024 * 1024}`);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** Marks the file as the workbench's, written in this version's schema, once every part created its tables. */
export function stampSchema(db: Database): void {
  if (Number(db.pragma('user_version')) < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  if (Number(db.pragma('application_id')) !== APPLICATION_ID) db.pragma(`application_id = ${APPLICATION_ID}`);
}

/**
 * A table of the file that is not the one a part of the workbench makes (another program's file, unstamped,
 * holding a table of the same name): SQLite's own words ("no such column: store_id") as one line naming the
 * file and the way out. Undefined for any other error.
 */
export function foreignTables(location: string, error: unknown): DataDirRefused | undefined {
  const message = error instanceof Error ? error.message : '';
  if (location === ':memory:' || !/no such column|has no column named|no such table/.test(message)) return undefined;
  return new DataDirRefused(`${location} holds tables this workbench did not make (${message.slice(0, 120)}): another program's file, or one changed by hand; move it away, or give another --data-dir`);
}

/** A write in one IMMEDIATE transaction of `db` (a savepoint inside one already open). */
export function transactionOf(db: Database): <T>(fn: () => T) => T {
  const tx = db.transaction((fn: () => unknown) => fn());
  return <T>(fn: () => T) => tx.immediate(fn) as T;
}
