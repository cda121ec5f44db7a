// Persistence with --data-dir: an append-only JSON-lines journal (`sandbox.jsonl`, mode 0600) of every
// write, applied over the seeded world whenever a store's world is built (on first use, and again after
// the sandbox evicted it to bound memory). Each write is appended and fsync'd before the request is
// answered (write, then answer), so a write the client saw acknowledged survives kill -9.
//
// A failed append (disk full, file size limit, I/O error) never leaves torn bytes behind: the file is
// truncated back to the end of the last good line before the error is thrown (JournalWriteError, which
// the sandbox answers as a 503 with Retry-After), so the next acknowledged write starts on a clean line.
// If even that truncation fails, the journal refuses every further write until the process restarts
// (and the next start drops the torn tail, which was never answered).
//
// At start a line cut short by a crash mid-append is dropped (it was never answered); any other
// unreadable line, or an entry whose shape is wrong (checked field by field, records against the fixture
// schemas), stops the start with the file, line and field. Only each store's line offsets stay in memory
// (about 16 bytes a write), and a store's entries are read back from the file when its world is rebuilt.
// Without --data-dir the journal lives in memory: each store's entries as their JSON lines (a store's
// writes are far smaller than its world, and a string is smaller than the parsed records), so an
// evicted world is rebuilt from them the same way.
import { chmodSync, closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { findUnsafeKey } from '../http/object-paths.js';
import type { CartRecord, CustomerRecord, Identity, OrderRecord, ProductRecord } from './types.js';

export type Put =
  | { kind: 'product'; record: ProductRecord }
  | { kind: 'customer'; record: CustomerRecord }
  | { kind: 'cart'; record: CartRecord }
  | { kind: 'order'; record: OrderRecord }
  /** A cart the back office removed (DELETE /__simulator/stores/{store_id}/carts/{cart_id}). */
  | { kind: 'cart-deleted'; id: string };

export type Entry =
  | { v: 1; store: string; at: string; op: 'put'; puts: Put[] }
  | { v: 1; store: string; at: string; op: 'reset' }
  | { v: 1; store: string; at: string; op: 'identity'; identity: Identity };

export const JOURNAL_FILE = 'sandbox.jsonl';

/** What a journaled record must be (the fixture schemas, `fixtures.ts`): the field at fault, or undefined. */
export type RecordCheck = (kind: Exclude<Put['kind'], 'cart-deleted'>, record: unknown) => string | undefined;

/** An append that did not reach the disk; the journal is as it was before it (unless `refusing`). */
export class JournalWriteError extends Error {
  constructor(
    message: string,
    /** The file could not be put back: every later write is refused until a restart. */
    readonly refusing: boolean,
    readonly errno?: string,
  ) {
    super(message);
  }
}

export class Journal {
  /** Bytes of complete lines: where the next append starts, and where a failed one is cut back to. */
  private size = 0;
  private refusal?: string;
  /** Per store, the writes since its last reset: JSON lines in memory, or [offset, length] pairs in the file. */
  private readonly memory = new Map<string, string[]>();
  private readonly lines = new Map<string, number[]>();

  private constructor(
    readonly location: string,
    private fd: number | undefined,
    /** The identities journaled so far (read at start; the sandbox keeps them). */
    readonly identities: Identity[],
    readonly notes: string[],
  ) {}

  static inMemory(): Journal {
    return new Journal(':memory:', undefined, [], []);
  }

  static open(dir: string, check?: RecordCheck): Journal {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, JOURNAL_FILE);
    const created = !existsSync(file);
    const fd = openSync(file, 'a+', 0o600);
    try {
      // A journal written by an older run with wider permissions is narrowed: it holds customers' details.
      if ((fstatSync(fd).mode & 0o077) !== 0) chmodSync(file, 0o600);
      if (created) fsyncDir(dir);
      const bytes = readFileSync(file);
      const notes: string[] = [];
      const end = bytes.lastIndexOf(0x0a) + 1;
      if (end < bytes.length) {
        // The tail after the last newline is an append cut short: never acknowledged, so dropped.
        ftruncateSync(fd, end);
        fsyncSync(fd);
        notes.push(`sandbox: dropped an incomplete last line of ${file} (a write interrupted before it was answered)`);
      }
      const journal = new Journal(file, fd, [], notes);
      journal.size = end;
      let start = 0;
      for (let n = 1; start < end; n++) {
        const stop = bytes.indexOf(0x0a, start);
        const line = bytes.toString('utf8', start, stop);
        if (line.trim() !== '') {
          const entry = readEntry(file, n, line, check);
          if (entry.op === 'identity') journal.identities.push(entry.identity);
          else journal.index(entry, start, stop + 1 - start);
        }
        start = stop + 1;
      }
      return journal;
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  get persistent(): boolean {
    return this.fd !== undefined;
  }

  /** Why writes are refused until a restart, if they are. */
  get refusing(): string | undefined {
    return this.refusal;
  }

  /** Appends one entry and waits for the disk (fsync) before returning; throws JournalWriteError, leaving no torn bytes. */
  append(entry: Entry): void {
    if (this.fd === undefined) {
      this.index(entry);
      return;
    }
    if (this.refusal) throw new JournalWriteError(this.refusal, true);
    const bytes = Buffer.from(`${JSON.stringify(entry)}\n`);
    const start = this.size;
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
      fsyncSync(this.fd);
    } catch (e) {
      const errno = (e as NodeJS.ErrnoException).code;
      const why = `${this.location}: the write could not be kept (${errno ?? (e as Error).message})`;
      try {
        ftruncateSync(this.fd, start);
        fsyncSync(this.fd);
      } catch (cut) {
        this.refusal = `${why}, and the torn line could not be cut back (${(cut as NodeJS.ErrnoException).code ?? (cut as Error).message}); writes are refused until the workbench restarts`;
        throw new JournalWriteError(this.refusal, true, errno);
      }
      throw new JournalWriteError(`${why}; nothing was changed`, false, errno);
    }
    this.size = start + bytes.length;
    this.index(entry, start, bytes.length);
  }

  /** The store's writes since its last reset, oldest first (read back from the file with --data-dir). */
  entriesOf(store: string): Entry[] {
    if (this.fd === undefined) return (this.memory.get(store) ?? []).map((line) => JSON.parse(line) as Entry);
    const spans = this.lines.get(store) ?? [];
    const entries: Entry[] = [];
    for (let i = 0; i < spans.length; i += 2) {
      const buf = Buffer.alloc(spans[i + 1]);
      let got = 0;
      while (got < buf.length) {
        const n = readSync(this.fd, buf, got, buf.length - got, spans[i] + got);
        if (n === 0) throw new Error(`${this.location}: ended before the entry at byte ${spans[i]} (was the file changed while the workbench ran?)`);
        got += n;
      }
      entries.push(JSON.parse(buf.toString('utf8')) as Entry);
    }
    return entries;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private index(entry: Entry, offset?: number, length?: number): void {
    // Identities are the sandbox's (Identities), read once at start.
    if (entry.op === 'identity') return;
    // A reset makes the store's earlier writes irrelevant: they are forgotten, and the reset itself needs no replay.
    if (entry.op === 'reset') {
      this.memory.delete(entry.store);
      this.lines.delete(entry.store);
      return;
    }
    if (offset === undefined) {
      const lines = this.memory.get(entry.store) ?? [];
      lines.push(JSON.stringify(entry));
      this.memory.set(entry.store, lines);
    } else {
      const spans = this.lines.get(entry.store) ?? [];
      spans.push(offset, length!);
      this.lines.set(entry.store, spans);
    }
  }
}

/** One line of the file as an entry, or an error naming the file, the line and the field. */
function readEntry(file: string, n: number, line: string, check?: RecordCheck): Entry {
  const refuse = (why: string) => new Error(`${file} line ${n} ${why}; restore the file or remove the line`);
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch (e) {
    throw refuse(`is not valid JSON (${(e as Error).message})`);
  }
  const unsafe = findUnsafeKey(entry);
  const e = entry as Record<string, unknown> | null;
  if (unsafe !== undefined || e === null || typeof e !== 'object' || Array.isArray(e) || e.v !== 1 || typeof e.store !== 'string') {
    throw refuse(`is not a sandbox journal entry${unsafe ? ` (refused key ${unsafe})` : ''}`);
  }
  const problem = shapeProblem(e, check);
  if (problem) throw refuse(`is a sandbox journal entry of the wrong shape: ${problem}`);
  return e as unknown as Entry;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first field of a version-1 entry that is not what the sandbox writes, if any. */
function shapeProblem(e: Record<string, unknown>, check?: RecordCheck): string | undefined {
  if (e.store === '') return 'field store must not be empty';
  if (typeof e.at !== 'string') return 'field at must be a string (an ISO date-time)';
  if (e.op === 'reset') return undefined;
  if (e.op === 'identity') {
    const id = e.identity;
    if (!isObject(id)) return 'field identity must be an object';
    if (id.store_id !== e.store) return 'field identity.store_id must be the entry\'s store';
    if (!isObject(id.user) || typeof id.user.id !== 'string') return 'field identity.user.id must be a string';
    if (id.customer_id !== undefined && typeof id.customer_id !== 'string') return 'field identity.customer_id must be a string (the customer the token is bound to)';
    for (const name of ['access_token_sha256', 'refresh_token_sha256']) {
      if (typeof id[name] !== 'string' || !/^[0-9a-f]{64}$/.test(id[name] as string)) return `field identity.${name} must be 64 hex digits (a SHA-256 digest)`;
    }
    return undefined;
  }
  if (e.op !== 'put') return 'field op must be one of "put", "reset", "identity"';
  if (!Array.isArray(e.puts)) return 'field puts must be an array';
  for (const [i, put] of e.puts.entries()) {
    if (!isObject(put)) return `field puts[${i}] must be an object`;
    if (put.kind === 'cart-deleted') {
      if (typeof put.id !== 'string' || put.id === '') return `field puts[${i}].id must be a non-empty string (the removed cart's id)`;
      continue;
    }
    if (put.kind !== 'product' && put.kind !== 'customer' && put.kind !== 'cart' && put.kind !== 'order') return `field puts[${i}].kind must be one of "product", "customer", "cart", "order", "cart-deleted"`;
    if (!isObject(put.record)) return `field puts[${i}].record must be an object`;
    const problem = check?.(put.kind, put.record);
    if (problem) return problem.replace(/^field /, `field puts[${i}].record.`).replace('record.[', 'record[');
  }
  return undefined;
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
