// SQLite for the workbench's store (../store/database.ts), through libsql (https://github.com/tursodatabase/libsql-js): the
// SQLite engine as a prebuilt Node-API binary per platform, shipped as an optional dependency
// (@libsql/<platform>), so installing needs no install script and no compiler (`npm install
// --ignore-scripts` works), and Node-API keeps one binary loadable on Node 20, 22 and 24. Real files with
// WAL and POSIX locks: a process killed with -9 loses no committed transaction, and several processes can
// share one data directory. Why this one and not better-sqlite3, node:sqlite or a WebAssembly build:
// workbench/simulator/README.md ("Storage").
//
// libsql keeps a closed database's files open until its prepared statements are garbage collected (they hold
// the connection): close() ends every use, the file descriptors go with the next collections.
//
// libsql follows better-sqlite3's API but not everywhere, so the store talks to this small surface and the
// differences stay here: nested transactions become savepoints (libsql would issue a second BEGIN), `pluck`
// also applies to get(), and rows from get() lose the `_metadata` timing field libsql adds to them.
import { createRequire } from 'node:module';

export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

export interface Statement<Row = unknown> {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
  /** The same statement, whose rows come back as their first column's value. */
  pluck(): Statement<Row>;
}

export interface Transaction<F extends (...args: any[]) => any> {
  (...args: Parameters<F>): ReturnType<F>;
  /** BEGIN IMMEDIATE: takes the write lock at once, so a check-then-write cannot race another connection. */
  immediate(...args: Parameters<F>): ReturnType<F>;
}

export interface Database {
  /** Parameters: positional values, or one object of named ones (`@name` in the SQL, `name` as the key). */
  prepare<Row = unknown>(sql: string): Statement<Row>;
  /**
   * The same, with rows as arrays of the column values in the statement's order: no object with named keys
   * is built per row (the driver's row building is most of the cost of a many-row RETURNING).
   */
  prepareRaw<Row extends unknown[] = unknown[]>(sql: string): Statement<Row>;
  exec(sql: string): void;
  /** Runs `PRAGMA <sql>` and returns the first column of its first row (undefined when it has none). */
  pragma(sql: string): unknown;
  /** `fn` in one transaction; called inside another transaction it runs as a savepoint of it. */
  transaction<F extends (...args: any[]) => any>(fn: F): Transaction<F>;
  /** Inside a transaction begun by `transaction`. */
  readonly inTransaction: boolean;
  readonly open: boolean;
  close(): void;
}

/** The part of libsql's Database and Statement used here. */
interface LibsqlStatement {
  raw(raw?: boolean): LibsqlStatement;
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Array<Record<string, unknown>>;
}
interface LibsqlDatabase {
  prepare(sql: string): LibsqlStatement;
  exec(sql: string): void;
  close(): void;
}

/** How long a connection waits for another one's write lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

const require = createRequire(import.meta.url);

function loadLibsql(): new (filename: string) => LibsqlDatabase {
  try {
    return require('libsql') as new (filename: string) => LibsqlDatabase;
  } catch (e) {
    throw new Error(
      `The webhook simulator's store needs the libsql package and its prebuilt binary for ${process.platform}-${process.arch} ` +
        `(an optional dependency, @libsql/<platform>): ${(e as Error).message}`,
    );
  }
}

function first(row: Record<string, unknown>): unknown {
  for (const key in row) return row[key];
  return undefined;
}

/**
 * libsql takes one object (named parameters) or an array (positional ones) as a single argument; given
 * several arguments it copies them with `flat()` first, a cost on every call of a hot statement.
 */
function bind(params: unknown[]): unknown {
  return params.length === 1 && params[0] !== null && typeof params[0] === 'object' && !(params[0] instanceof Uint8Array) ? params[0] : params;
}

class Stmt<Row> implements Statement<Row> {
  constructor(
    private readonly s: LibsqlStatement,
    private readonly plucking = false,
    private readonly rawRows = false,
  ) {}

  run(...params: unknown[]): RunResult {
    return this.s.run(bind(params));
  }

  get(...params: unknown[]): Row | undefined {
    const row = this.s.get(bind(params));
    if (row === undefined) return undefined;
    if (this.plucking) return first(row) as Row;
    if (!this.rawRows) delete row._metadata;
    return row as Row;
  }

  all(...params: unknown[]): Row[] {
    const rows = this.s.all(bind(params));
    return (this.plucking ? rows.map(first) : rows) as Row[];
  }

  pluck(): Statement<Row> {
    return new Stmt<Row>(this.s, true, this.rawRows);
  }
}

class LibsqlDb implements Database {
  open = true;
  private depth = 0;
  private readonly control = new Map<string, LibsqlStatement>();

  constructor(private readonly db: LibsqlDatabase) {}

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  prepare<Row = unknown>(sql: string): Statement<Row> {
    return new Stmt<Row>(this.db.prepare(sql));
  }

  prepareRaw<Row extends unknown[] = unknown[]>(sql: string): Statement<Row> {
    return new Stmt<Row>(this.db.prepare(sql).raw(true), false, true);
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  pragma(sql: string): unknown {
    const row = this.db.prepare(`PRAGMA ${sql}`).get();
    return row === undefined ? undefined : first(row);
  }

  /** BEGIN, COMMIT and friends, prepared once. */
  private ctl(sql: string): void {
    let s = this.control.get(sql);
    if (!s) this.control.set(sql, (s = this.db.prepare(sql)));
    s.run();
  }

  transaction<F extends (...args: any[]) => any>(fn: F): Transaction<F> {
    const wrap =
      (begin: string) =>
      (...args: Parameters<F>): ReturnType<F> => {
        if (this.depth > 0) {
          this.ctl('SAVEPOINT nested');
          this.depth++;
          try {
            const result = fn(...args);
            this.ctl('RELEASE nested');
            return result;
          } catch (e) {
            this.ctl('ROLLBACK TO nested');
            this.ctl('RELEASE nested');
            throw e;
          } finally {
            this.depth--;
          }
        }
        this.ctl(begin);
        this.depth = 1;
        try {
          const result = fn(...args);
          this.ctl('COMMIT');
          return result;
        } catch (e) {
          try {
            this.ctl('ROLLBACK');
          } catch {
            // SQLite already rolled back (some errors end the transaction themselves).
          }
          throw e;
        } finally {
          this.depth = 0;
        }
      };
    const tx = wrap('BEGIN') as Transaction<F>;
    tx.immediate = wrap('BEGIN IMMEDIATE');
    return tx;
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.control.clear();
    this.db.close();
  }
}

/** Opens (creating if needed) a SQLite file, or an in-memory database for `:memory:`. */
export function openDatabase(filename: string): Database {
  const Libsql = loadLibsql();
  const db = new LibsqlDb(new Libsql(filename));
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}
