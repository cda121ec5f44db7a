// What the workbench keeps in a data directory (workbench/store/): its one database, read from another
// connection (WAL: safe while the workbench runs), and the raw bytes of its files, for scans.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DATABASE_FILE } from '../../workbench/store/database.js';
import { openDatabase } from '../../workbench/store/sqlite.js';

/** A settings row of the data directory's database (e.g. `clocks`), parsed; undefined when absent. */
export function storedSetting(dir: string, key: string): unknown {
  return withStore(dir, (db) => {
    const has = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'settings'`).get();
    const value = has ? (db.prepare(`SELECT value FROM settings WHERE key = ?`).pluck().get(key) as string | undefined) : undefined;
    return value === undefined ? undefined : JSON.parse(value);
  });
}

/** Rows of a query on the data directory's database. */
export function storeRows<T = Record<string, unknown>>(dir: string, sql: string, ...params: unknown[]): T[] {
  return withStore(dir, (db) => db.prepare(sql).all(...params) as T[]);
}

/** Every byte of the database's files (the file, -wal, -shm), as latin1 text: for "holds no token" scans. */
export function storeBytes(dir: string): string {
  return readdirSync(dir)
    .filter((f) => f.startsWith(DATABASE_FILE))
    .map((f) => readFileSync(path.join(dir, f)).toString('latin1'))
    .join('\n');
}

function withStore<T>(dir: string, fn: (db: ReturnType<typeof openDatabase>) => T): T {
  const file = path.join(dir, DATABASE_FILE);
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  const db = openDatabase(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
