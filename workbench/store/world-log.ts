// The sandbox's writes per store, as entries (JSON text the sandbox defines: ../sandbox/world-writes.ts),
// and the identities it issued, as records keyed by the SHA-256 of their access token. Two
// implementations of one port: in the workbench's database (`SqliteWorldLog`, with --data-dir; its
// appends join the transaction the sandbox opens for a write and its events) and in memory
// (`MemoryWorldLog`: tests, a workbench without --data-dir, the browser build).
//
// Nothing is replayed at start: a store's entries are read when its world is first built in a process,
// from an index on the store, so a restart costs the same after ten writes or a million.
import type { Database, Statement } from './database.js';

export interface WorldLog {
  /** Where the entries are kept (a file, or `:memory:`). */
  readonly location: string;
  readonly persistent: boolean;
  /** The store's entries since its last reset, oldest first. */
  entries(store: string): Iterable<string>;
  /** How many entries the store holds now. */
  count(store: string): number;
  /** True when the store has writes since its last reset. */
  has(store: string): boolean;
  append(store: string, entry: string): void;
  /** Replaces every entry of the store with these (a fold of them). */
  replace(store: string, entries: readonly string[]): void;
  /** Forgets the store's entries (a reset). */
  clear(store: string): void;
  /** Records an identity (a new one, or a later state of one: the same digest replaces it). */
  putIdentity(accessSha256: string, store: string, identity: string): void;
  identity(accessSha256: string): string | undefined;
  identityCount(store: string): number;
  close(): void;
}

export class MemoryWorldLog implements WorldLog {
  readonly location = ':memory:';
  readonly persistent = false;
  private readonly stores = new Map<string, string[]>();
  private readonly identities = new Map<string, { store: string; identity: string }>();
  private readonly perStore = new Map<string, number>();

  entries(store: string): Iterable<string> {
    return this.stores.get(store) ?? [];
  }

  count(store: string): number {
    return this.stores.get(store)?.length ?? 0;
  }

  has(store: string): boolean {
    return this.stores.has(store);
  }

  append(store: string, entry: string): void {
    const list = this.stores.get(store);
    if (list) list.push(entry);
    else this.stores.set(store, [entry]);
  }

  replace(store: string, entries: readonly string[]): void {
    if (entries.length) this.stores.set(store, [...entries]);
    else this.stores.delete(store);
  }

  clear(store: string): void {
    this.stores.delete(store);
  }

  putIdentity(accessSha256: string, store: string, identity: string): void {
    if (!this.identities.has(accessSha256)) this.perStore.set(store, (this.perStore.get(store) ?? 0) + 1);
    this.identities.set(accessSha256, { store, identity });
  }

  identity(accessSha256: string): string | undefined {
    return this.identities.get(accessSha256)?.identity;
  }

  identityCount(store: string): number {
    return this.perStore.get(store) ?? 0;
  }

  close(): void {}
}

const TABLES = `
CREATE TABLE IF NOT EXISTS world_writes (
  seq INTEGER PRIMARY KEY,
  store_id TEXT NOT NULL,
  entry TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS world_writes_store ON world_writes(store_id, seq);
CREATE TABLE IF NOT EXISTS identities (
  access_token_sha256 TEXT PRIMARY KEY,
  store_id TEXT NOT NULL,
  identity TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS identities_store ON identities(store_id);
`;

export class SqliteWorldLog implements WorldLog {
  readonly persistent: boolean;
  private readonly s: Record<string, Statement<any>>;
  private readonly replaceTx: (store: string, entries: readonly string[]) => void;

  constructor(
    db: Database,
    readonly location: string,
  ) {
    this.persistent = location !== ':memory:';
    db.exec(TABLES);
    this.s = {
      entries: db.prepare(`SELECT entry FROM world_writes WHERE store_id = ? ORDER BY seq`).pluck(),
      count: db.prepare(`SELECT count(*) FROM world_writes WHERE store_id = ?`).pluck(),
      has: db.prepare(`SELECT 1 FROM world_writes WHERE store_id = ? LIMIT 1`).pluck(),
      append: db.prepare(`INSERT INTO world_writes (store_id, entry) VALUES (?, ?)`),
      clear: db.prepare(`DELETE FROM world_writes WHERE store_id = ?`),
      putIdentity: db.prepare(
        `INSERT INTO identities (access_token_sha256, store_id, identity) VALUES (?, ?, ?) ON CONFLICT (access_token_sha256) DO UPDATE SET identity = excluded.identity`,
      ),
      identity: db.prepare(`SELECT identity FROM identities WHERE access_token_sha256 = ?`).pluck(),
      identityCount: db.prepare(`SELECT count(*) FROM identities WHERE store_id = ?`).pluck(),
    };
    // A savepoint inside the sandbox's write transaction; its own transaction otherwise.
    this.replaceTx = db.transaction((store: string, entries: readonly string[]) => {
      this.s.clear.run(store);
      for (const entry of entries) this.s.append.run(store, entry);
    });
  }

  entries(store: string): Iterable<string> {
    return this.s.entries.all(store) as string[];
  }

  count(store: string): number {
    return this.s.count.get(store) as number;
  }

  has(store: string): boolean {
    return this.s.has.get(store) !== undefined;
  }

  append(store: string, entry: string): void {
    this.s.append.run(store, entry);
  }

  replace(store: string, entries: readonly string[]): void {
    this.replaceTx(store, entries);
  }

  clear(store: string): void {
    this.s.clear.run(store);
  }

  putIdentity(accessSha256: string, store: string, identity: string): void {
    this.s.putIdentity.run(accessSha256, store, identity);
  }

  identity(accessSha256: string): string | undefined {
    return this.s.identity.get(accessSha256) as string | undefined;
  }

  identityCount(store: string): number {
    return this.s.identityCount.get(store) as number;
  }

  close(): void {}
}
