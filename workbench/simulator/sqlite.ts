// better-sqlite3 behind the few typed calls the store uses. The package ships no types and installing
// @types/better-sqlite3 is not ours to do, so the surface we rely on is declared here.
import { createRequire } from 'node:module';

export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

export interface Statement<Row = unknown> {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
  /** Rows come back as their first column's value. */
  pluck(on?: boolean): Statement<Row>;
}

export interface Transaction<F extends (...args: any[]) => any> {
  (...args: Parameters<F>): ReturnType<F>;
  /** BEGIN IMMEDIATE: takes the write lock at once, so a check-then-write cannot race another connection. */
  immediate(...args: Parameters<F>): ReturnType<F>;
}

export interface Database {
  prepare<Row = unknown>(sql: string): Statement<Row>;
  exec(sql: string): void;
  pragma(sql: string): unknown;
  transaction<F extends (...args: any[]) => any>(fn: F): Transaction<F>;
  close(): void;
  readonly open: boolean;
}

type DatabaseConstructor = new (filename: string, options?: { timeout?: number }) => Database;

const require = createRequire(import.meta.url);

export function openDatabase(filename: string): Database {
  const Ctor = require('better-sqlite3') as DatabaseConstructor;
  // `timeout`: wait this long for another connection's write lock instead of failing at once.
  return new Ctor(filename, { timeout: 5000 });
}
