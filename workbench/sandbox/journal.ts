// Persistence with --data-dir: an append-only JSON-lines journal (`sandbox.jsonl`, mode 0600) of every
// write, applied over the seeded world when a store is first used. Each write is appended and fsync'd
// before the request is answered (write, then answer), so a write the client saw acknowledged survives
// kill -9. A line cut short by a crash mid-append is dropped at the next start (it was never answered);
// any other unreadable line stops the start with its line number. Without --data-dir the journal only
// lives in memory.
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { findUnsafeKey } from '../http/object-paths.js';
import type { CartRecord, CustomerRecord, Identity, OrderRecord, ProductRecord } from './types.js';

export type Put =
  | { kind: 'product'; record: ProductRecord }
  | { kind: 'customer'; record: CustomerRecord }
  | { kind: 'cart'; record: CartRecord }
  | { kind: 'order'; record: OrderRecord };

export type Entry =
  | { v: 1; store: string; at: string; op: 'put'; puts: Put[] }
  | { v: 1; store: string; at: string; op: 'reset' }
  | { v: 1; store: string; at: string; op: 'identity'; identity: Identity };

export const JOURNAL_FILE = 'sandbox.jsonl';

export class Journal {
  private constructor(
    readonly location: string,
    private fd: number | undefined,
    readonly entries: Entry[],
    readonly notes: string[],
  ) {}

  static inMemory(): Journal {
    return new Journal(':memory:', undefined, [], []);
  }

  static open(dir: string): Journal {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, JOURNAL_FILE);
    const created = !existsSync(file);
    const fd = openSync(file, 'a+', 0o600);
    // A journal written by an older run with wider permissions is narrowed: it holds customers' details.
    if ((fstatSync(fd).mode & 0o077) !== 0) chmodSync(file, 0o600);
    if (created) fsyncDir(dir);
    const text = readFileSync(file, 'utf8');
    const notes: string[] = [];
    const entries: Entry[] = [];
    const end = text.lastIndexOf('\n') + 1;
    if (end < text.length) {
      // The tail after the last newline is an append a crash cut short: never acknowledged, so dropped.
      ftruncateSync(fd, Buffer.byteLength(text.slice(0, end)));
      fsyncSync(fd);
      notes.push(`sandbox: dropped an incomplete last line of ${file} (a write interrupted before it was answered)`);
    }
    const lines = text.slice(0, end).split('\n');
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      let entry: Entry;
      try {
        entry = JSON.parse(line) as Entry;
      } catch (e) {
        closeSync(fd);
        throw new Error(`${file} line ${i + 1} is not valid JSON (${(e as Error).message}); restore the file or remove the line`);
      }
      const unsafe = findUnsafeKey(entry);
      if (unsafe !== undefined || entry?.v !== 1 || typeof entry.store !== 'string') {
        closeSync(fd);
        throw new Error(`${file} line ${i + 1} is not a sandbox journal entry${unsafe ? ` (refused key ${unsafe})` : ''}; restore the file or remove the line`);
      }
      entries.push(entry);
    });
    return new Journal(file, fd, entries, notes);
  }

  get persistent(): boolean {
    return this.fd !== undefined;
  }

  /** Appends one entry and waits for the disk (fsync) before returning. */
  append(entry: Entry): void {
    if (this.fd === undefined) return;
    const bytes = Buffer.from(`${JSON.stringify(entry)}\n`);
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot fsync a directory; the file's own fsync still holds the data.
  }
}
