// Persistence with --data-dir: a snapshot plus an append-only tail, both JSON lines (mode 0600).
//
//   sandbox.snapshot.jsonl  every store's changes since its last reset, folded (written whole by compaction)
//   sandbox.jsonl           the tail: the entries written since that snapshot, one a line
//
// Entries record what changed: a stock move is `{kind: "stock", product_id, variant_id, inventory}` (the
// variant's lots after the move, about 200 bytes), not the product; a created or changed record is the
// record. Version-1 entries (every write as whole records, the format before compaction) are still read.
// A world is built from seed and fixtures, then the store's snapshot lines, then its tail entries, with
// the same function the live write path uses (`applyPuts`), so a restart gives the world the live
// process had, field for field.
//
// Each write is appended to the tail and fsync'd before the request is answered (write, then answer), so
// a write the client saw acknowledged survives kill -9. A failed append (disk full, file size limit, I/O
// error) is cut back to the last good line (JournalWriteError, answered 503 with Retry-After).
//
// Compaction (automatic, after a write, when the tail reaches `entries` lines or `bytes`): every store's
// snapshot lines and tail entries are folded into its current changes (one store at a time, so memory
// stays that of one store), written to `sandbox.snapshot.jsonl.tmp` and fsync'd, a fresh tail is written
// to `sandbox.jsonl.tmp` and fsync'd, then the snapshot is renamed into place (the commit point), then the
// tail. Both files name a generation: a tail older than the snapshot was folded into it already (a crash
// between the two renames) and is dropped at start; leftover .tmp files are removed. A compaction that
// fails (disk full) removes its .tmp files and leaves the journal as it was; it is tried again later.
//
// Start-up reads both files once, in chunks (linear; progress every second on the log when it takes
// longer than one), checks every line and keeps only each store's line offsets. A last line cut short by
// a crash (no newline, or not JSON) was never acknowledged and is dropped; any other bad line stops the
// start with the file, the line, why, and the known-good prefix (how to keep it). Without --data-dir the
// journal lives in memory: each store's entries as JSON lines, folded into one state line every
// MEMORY_FOLD entries, so it is bounded by the state, not by the number of writes.
import { chmodSync, closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { findUnsafeKey } from '../http/object-paths.js';
import type { CartRecord, CustomerRecord, Identity, InventoryLot, OrderRecord, ProductRecord } from './types.js';

export type Put =
  | { kind: 'product'; record: ProductRecord }
  | { kind: 'customer'; record: CustomerRecord }
  | { kind: 'cart'; record: CartRecord }
  | { kind: 'order'; record: OrderRecord }
  /** A cart the back office removed (DELETE /__simulator/stores/{store_id}/carts/{cart_id}). */
  | { kind: 'cart-deleted'; id: string }
  /** A stock move (version 2): the variant's lots after it; stock_available follows from them. */
  | { kind: 'stock'; product_id: string; variant_id: string; inventory: InventoryLot[] };

type Head = { v: 1 | 2; store: string; at: string };
export type Entry = Head &
  (
    | { op: 'put'; puts: Put[] }
    | { op: 'reset' }
    | { op: 'identity'; identity: Identity }
    /** A store's folded changes (the snapshot, or the in-memory fold): `changes` writes since its reset. */
    | { op: 'state'; changes: number; puts: Put[] }
  );

/** The version entries are written in (1: whole records only, no `stock`, no `state`; still read). */
export const ENTRY_VERSION = 2;
export const JOURNAL_FILE = 'sandbox.jsonl';
export const SNAPSHOT_FILE = 'sandbox.snapshot.jsonl';
/** Compaction's defaults: the tail is folded into the snapshot at this many entries or bytes, whichever first. */
export const DEFAULT_COMPACT_ENTRIES = 100_000;
export const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;
/** No entry the sandbox writes comes near this (bodies are at most a few MB); a longer line is refused. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Without --data-dir a store's entries are folded into one state line every this many. */
const MEMORY_FOLD = 256;
/** Puts per snapshot line (a store with many changed records takes several lines). */
const PUTS_PER_LINE = 256;

/** Where compaction stops when the test hook asks it to (`SFC_TEST_COMPACTION_CRASH_AT`): kill -9 there. */
export const COMPACTION_POINTS = ['snapshot-partial', 'snapshot-written', 'tail-written', 'snapshot-renamed', 'tail-renamed'] as const;
export type CompactionPoint = (typeof COMPACTION_POINTS)[number];

export interface JournalOptions {
  /** Records checked against the fixture schemas (`fixtures.ts`). */
  check?: RecordCheck;
  /** Compact when the tail holds this many entries. Default 100,000. */
  compactEntries?: number;
  /** ... or this many bytes. Default 64 MiB. */
  compactBytes?: number;
  /** Start-up notes and progress, compaction notes. */
  log?: (line: string) => void;
  /** Tests: the write function (to simulate ENOSPC); default fs.writeSync. */
  write?: (fd: number, buffer: Buffer, offset: number, length: number) => number;
  /** Lines longer than this are refused (tests make it small). Default MAX_LINE_BYTES. */
  maxLineBytes?: number;
  /** Bench only (writing a million entries in-process): skip the fsync of each append. Default true. */
  sync?: boolean;
  /** Tests: called at each compaction point (the default reads SFC_TEST_COMPACTION_CRASH_AT and kills the process there). */
  at?: (point: CompactionPoint) => void;
}

/** What a journaled record must be (the fixture schemas, `fixtures.ts`): the field at fault, or undefined. */
export type RecordCheck = (kind: 'product' | 'customer' | 'cart' | 'order', record: unknown) => string | undefined;

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

/** A data directory the sandbox cannot start from: the message names the file, the line, why and what to do. */
export class JournalReadError extends Error {
  readonly name = 'JournalReadError';
}

interface StoreLines {
  /** [offset, length] pairs of the store's lines in the snapshot file. */
  state: number[];
  /** [offset, length] pairs of its entries in the tail. */
  tail: number[];
}

export interface CompactionResult {
  stores: number;
  lines: number;
  snapshotBytes: number;
  ms: number;
}

export class Journal {
  /** Bytes of the tail's complete lines: where the next append starts, and where a failed one is cut back to. */
  private size = 0;
  private tailEntries = 0;
  private snapshotBytes = 0;
  private generation = 0;
  private refusal?: string;
  /** After a failed compaction: not tried again before the tail reaches these. */
  private retryAt = { entries: 0, bytes: 0 };
  private readonly memory = new Map<string, string[]>();
  private readonly stores = new Map<string, StoreLines>();
  private snapshotFd?: number;
  private readonly compactEntries: number;
  private readonly compactBytes: number;
  private readonly write: NonNullable<JournalOptions['write']>;
  private readonly at: NonNullable<JournalOptions['at']>;
  /** Compactions done since start (for tests and the bench). */
  compactions = 0;

  private constructor(
    readonly location: string,
    private fd: number | undefined,
    /** The identities journaled so far (read at start; the sandbox keeps them). */
    readonly identities: Identity[],
    readonly notes: string[],
    private readonly options: JournalOptions = {},
  ) {
    this.compactEntries = Math.max(1, options.compactEntries ?? DEFAULT_COMPACT_ENTRIES);
    this.compactBytes = Math.max(1, options.compactBytes ?? DEFAULT_COMPACT_BYTES);
    this.write = options.write ?? ((fd, b, o, l) => writeSync(fd, b, o, l));
    // Read lazily: the in-memory journal also runs in the browser (MSW), where there is no process.env.
    this.at = options.at ?? ((point) => crashHook()(point));
  }

  static inMemory(): Journal {
    return new Journal(':memory:', undefined, [], []);
  }

  static open(dir: string, options: JournalOptions | RecordCheck = {}): Journal {
    const opts: JournalOptions = typeof options === 'function' ? { check: options } : options;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, JOURNAL_FILE);
    const snapshotFile = path.join(dir, SNAPSHOT_FILE);
    const notes: string[] = [];
    // A compaction killed before its commit point left .tmp files: the old snapshot and tail are whole.
    for (const tmp of [`${file}.tmp`, `${snapshotFile}.tmp`]) {
      if (existsSync(tmp)) {
        unlinkSync(tmp);
        notes.push(`sandbox: removed ${path.basename(tmp)} (a compaction interrupted before it finished; nothing was lost)`);
      }
    }
    const created = !existsSync(file);
    const fd = openSync(file, 'a+', 0o600);
    const journal = new Journal(file, fd, [], notes, opts);
    try {
      narrow(fd, file);
      if (created) fsyncDir(dir);
      const progress = new Progress(opts.log);
      if (existsSync(snapshotFile)) journal.readSnapshot(snapshotFile, progress);
      journal.readTail(progress);
      progress.done(journal.tailEntries);
      return journal;
    } catch (e) {
      journal.close();
      throw e;
    }
  }

  get persistent(): boolean {
    return this.fd !== undefined;
  }

  /** True when the store has writes since its last reset (its world is more than the seed). */
  hasWrites(store: string): boolean {
    return this.fd === undefined ? this.memory.has(store) : this.stores.has(store);
  }

  /** The stores with writes since their last reset (the upgrade from 0.2.x reads each: ../../upgrade/). */
  storeIds(): string[] {
    return this.fd === undefined ? [...this.memory.keys()] : [...this.stores.keys()];
  }

  /** Why writes are refused until a restart, if they are. */
  get refusing(): string | undefined {
    return this.refusal;
  }

  /** Entries and bytes in the tail now, the snapshot's bytes and generation (tests, bench). */
  get stats(): { tailEntries: number; tailBytes: number; snapshotBytes: number; generation: number } {
    return { tailEntries: this.tailEntries, tailBytes: this.size, snapshotBytes: this.snapshotBytes, generation: this.generation };
  }

  /** Appends one entry and waits for the disk (fsync) before returning; throws JournalWriteError, leaving no torn bytes. */
  append(entry: Entry): void {
    if (this.fd === undefined) {
      this.remember(entry);
      return;
    }
    if (this.refusal) throw new JournalWriteError(this.refusal, true);
    const bytes = Buffer.from(`${JSON.stringify(entry)}\n`);
    const start = this.size;
    try {
      let off = 0;
      while (off < bytes.length) off += this.write(this.fd, bytes, off, bytes.length - off);
      if (this.options.sync !== false) fsyncSync(this.fd);
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

  /** Whether the tail has grown to the compaction thresholds (and no failed attempt asks to wait). */
  get due(): boolean {
    if (this.fd === undefined || this.refusal) return false;
    const over = this.tailEntries >= this.compactEntries || this.size >= this.compactBytes;
    return over && (this.tailEntries >= this.retryAt.entries || this.size >= this.retryAt.bytes);
  }

  /** The store's writes since its last reset, oldest first (read back from the files with --data-dir). */
  entriesOf(store: string): Entry[] {
    return [...this.entries(store)];
  }

  /** The same, one entry at a time (a world is rebuilt without holding every parsed entry at once). */
  *entries(store: string): Generator<Entry> {
    if (this.fd === undefined) {
      for (const line of this.memory.get(store) ?? []) yield JSON.parse(line) as Entry;
      return;
    }
    const lines = this.stores.get(store);
    if (!lines) return;
    const { state, tail } = lines;
    for (const bytes of readSpans(this.snapshotFd, state, this.location)) yield JSON.parse(bytes.toString('utf8')) as Entry;
    for (const bytes of readSpans(this.fd, tail, this.location)) yield JSON.parse(bytes.toString('utf8')) as Entry;
  }

  /**
   * Folds the snapshot and the tail into a new snapshot and an empty tail (see the file's head for the
   * order of steps). Returns undefined and leaves everything as it was when the disk refuses (logged).
   */
  compact(identities: Iterable<Identity>): CompactionResult | undefined {
    if (this.fd === undefined || this.refusal) return undefined;
    const started = Date.now();
    const dir = path.dirname(this.location);
    const snapshotFile = path.join(dir, SNAPSHOT_FILE);
    const next = this.generation + 1;
    const at = new Date().toISOString();
    const newStores = new Map<string, StoreLines>();
    let snapFd: number | undefined;
    let tailFd: number | undefined;
    let lines = 0;
    try {
      snapFd = openSync(`${snapshotFile}.tmp`, 'w+', 0o600);
      const out = new BufferedWriter(snapFd, this.write);
      out.line({ v: ENTRY_VERSION, op: 'snapshot', generation: next, at });
      const seen = new Set<string>();
      for (const identity of identities) {
        if (seen.has(identity.access_token_sha256)) continue;
        seen.add(identity.access_token_sha256);
        out.line({ v: ENTRY_VERSION, store: identity.store_id, at, op: 'identity', identity });
        lines++;
      }
      let halfway = Math.floor(this.stores.size / 2);
      for (const store of [...this.stores.keys()]) {
        if (halfway-- === 0) this.at('snapshot-partial');
        const written: number[] = [];
        const { state, tail } = this.stores.get(store)!;
        if (tail.length === 0) {
          // Nothing new for this store: its snapshot lines are copied as they are.
          for (const bytes of readSpans(this.snapshotFd, state, this.location)) {
            written.push(out.position, bytes.length);
            out.raw(bytes);
            lines++;
          }
        } else {
          const fold = new Fold();
          for (const entry of this.entries(store)) fold.add(entry);
          for (const entry of fold.entries(store, at)) {
            const start = out.position;
            out.line(entry);
            written.push(start, out.position - start);
            lines++;
          }
        }
        if (written.length) newStores.set(store, { state: written, tail: [] });
      }
      out.line({ v: ENTRY_VERSION, op: 'end', generation: next, lines });
      out.flush();
      fsyncSync(snapFd);
      this.at('snapshot-written');
      tailFd = openSync(`${this.location}.tmp`, 'w+', 0o600);
      const tail = Buffer.from(`${JSON.stringify({ v: ENTRY_VERSION, op: 'begin', generation: next, at })}\n`);
      for (let off = 0; off < tail.length; ) off += this.write(tailFd, tail, off, tail.length - off);
      fsyncSync(tailFd);
      this.at('tail-written');
      // The commit point: from here the snapshot holds every acknowledged write, and the old tail (an
      // older generation) is dropped at start if the next rename does not happen.
      renameSync(`${snapshotFile}.tmp`, snapshotFile);
      fsyncDir(dir);
      const snapshotBytes = out.position;
      if (this.snapshotFd !== undefined) closeSync(this.snapshotFd);
      this.snapshotFd = snapFd;
      snapFd = undefined;
      this.snapshotBytes = snapshotBytes;
      this.generation = next;
      this.stores.clear();
      for (const [store, l] of newStores) this.stores.set(store, l);
      this.at('snapshot-renamed');
      try {
        renameSync(`${this.location}.tmp`, this.location);
        fsyncDir(dir);
      } catch (e) {
        // The snapshot is in place and the old tail is now stale: appending to it would lose writes at
        // the next start. Refuse writes until a restart (which drops the stale tail).
        this.refusal = `${this.location}: the compacted tail could not be put in place (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); writes are refused until the workbench restarts (nothing acknowledged is lost)`;
        this.log(`sandbox: ${this.refusal}`);
        closeSync(tailFd);
        tailFd = undefined;
        return undefined;
      }
      closeSync(this.fd);
      this.fd = tailFd;
      tailFd = undefined;
      this.size = tail.length;
      this.tailEntries = 0;
      this.retryAt = { entries: 0, bytes: 0 };
      this.compactions++;
      this.at('tail-renamed');
      return { stores: newStores.size, lines, snapshotBytes, ms: Date.now() - started };
    } catch (e) {
      // Nothing was renamed: the old snapshot and tail stay, whole. Tried again after more writes.
      for (const fd of [snapFd, tailFd]) if (fd !== undefined) closeSync(fd);
      for (const tmp of [`${snapshotFile}.tmp`, `${this.location}.tmp`]) {
        try {
          unlinkSync(tmp);
        } catch {
          // already gone
        }
      }
      this.retryAt = { entries: this.tailEntries + Math.ceil(this.compactEntries / 10), bytes: this.size + Math.ceil(this.compactBytes / 10) };
      this.log(`sandbox: compaction of ${this.location} failed (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}${(e as NodeJS.ErrnoException).code ? ': disk full?' : ''}); the journal is as it was, nothing is lost; trying again after more writes`);
      return undefined;
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    if (this.snapshotFd !== undefined) closeSync(this.snapshotFd);
    this.fd = undefined;
    this.snapshotFd = undefined;
  }

  private get maxLine(): number {
    return this.options.maxLineBytes ?? MAX_LINE_BYTES;
  }

  private log(line: string): void {
    (this.options.log ?? ((l) => process.stderr.write(`${l}\n`)))(line);
  }

  private readSnapshot(file: string, progress: Progress): void {
    const fd = openSync(file, 'r');
    this.snapshotFd = fd;
    narrow(fd, file);
    let n = 0;
    let header: Record<string, unknown> | undefined;
    let ended = false;
    let lines = 0;
    const refuse = (line: number, why: string) =>
      new JournalReadError(`${file} line ${line} ${why}; a snapshot is written whole or not at all, so it was changed outside the workbench: restore it from a backup (or move the data dir away to start from the seed)`);
    for (const line of readLines(fd, this.maxLine)) {
      n++;
      if (line.oversize || line.partial) throw refuse(n, line.oversize ? `is longer than ${mb(this.maxLine)}` : 'is cut short (no newline at its end)');
      if (ended) throw refuse(n, 'comes after the end line');
      const value = parseLine(line.text!);
      if (typeof value === 'string') throw refuse(n, value);
      if (isNewer(value)) throw newerVersion(file, n, value.v);
      if (n === 1) {
        if (value.op !== 'snapshot' || value.v !== ENTRY_VERSION || !Number.isSafeInteger(value.generation)) throw refuse(n, 'is not a snapshot header');
        header = value;
        continue;
      }
      if (value.op === 'end') {
        if (value.generation !== header!.generation || value.lines !== lines) throw refuse(n, `ends the snapshot with the wrong count (${String(value.lines)}, read ${lines})`);
        ended = true;
        continue;
      }
      const problem = entryProblem(value, this.options.check);
      if (problem) throw refuse(n, `is a sandbox journal entry of the wrong shape: ${problem}`);
      const entry = value as unknown as Entry;
      if (entry.op === 'identity') this.identities.push(entry.identity);
      else if (entry.op === 'state') this.lines(entry.store).state.push(line.offset, line.length + 1);
      else throw refuse(n, `has op "${entry.op}", which a snapshot does not hold`);
      lines++;
      progress.tick(file, line.offset);
    }
    if (!header) throw refuse(1, 'is missing (the file is empty)');
    if (!ended) throw refuse(n + 1, 'is missing: the end line was not found');
    this.generation = header.generation as number;
    this.snapshotBytes = fstatSync(fd).size;
  }

  private readTail(progress: Progress): void {
    const file = this.location;
    const fd = this.fd!;
    let n = 0;
    let good = 0;
    /** A bad complete line: an error, unless it is the last line (then an append cut short by a crash). */
    let pending: { n: number; offset: number; why: string } | undefined;
    const stop = (p: { n: number; offset: number; why: string }) =>
      new JournalReadError(
        `${file} line ${p.n} ${p.why}. The ${p.n - 1} line(s) before it (the first ${p.offset} bytes) are good: keep them with \`truncate -s ${p.offset} ${file}\` (the writes from line ${p.n} on are lost), or restore the file from a backup`,
      );
    for (const line of readLines(fd, this.maxLine)) {
      n++;
      if (pending) throw stop(pending);
      if (line.partial) {
        this.dropTail(line.offset, `an incomplete last line of ${file} (a write interrupted before it was answered)`);
        break;
      }
      if (line.oversize) throw stop({ n, offset: line.offset, why: `is longer than ${mb(this.maxLine)}, longer than any entry the sandbox writes` });
      const value = parseLine(line.text!);
      if (typeof value === 'string') {
        // Only a line that is not JSON can be a torn write; JSON that is no entry is refused at once.
        if (!value.startsWith('is not valid JSON')) throw stop({ n, offset: line.offset, why: value });
        pending = { n, offset: line.offset, why: value };
        continue;
      }
      if (isNewer(value)) throw newerVersion(file, n, value.v);
      if (n === 1 && value.op === 'begin') {
        if (value.v !== ENTRY_VERSION || !Number.isSafeInteger(value.generation)) {
          pending = { n, offset: line.offset, why: 'is not a tail header' };
          continue;
        }
        const generation = value.generation as number;
        if (generation < this.generation) {
          // A compaction was killed between its two renames: this tail is already in the snapshot.
          this.replaceStaleTail();
          return;
        }
        if (generation > this.generation) throw stop({ n, offset: line.offset, why: `begins generation ${generation} but ${SNAPSHOT_FILE} holds ${this.generation || 'none'} (was the snapshot removed or replaced?)` });
        good = line.offset + line.length + 1;
        continue;
      }
      if (n === 1 && this.generation > 0) {
        // A tail without a header (a version-1 journal) beside a snapshot: the snapshot was made from it.
        this.replaceStaleTail();
        return;
      }
      const problem = entryProblem(value, this.options.check);
      if (problem) throw stop({ n, offset: line.offset, why: `is a sandbox journal entry of the wrong shape: ${problem}` });
      const entry = value as unknown as Entry;
      if (entry.op === 'state') throw stop({ n, offset: line.offset, why: 'is a snapshot line (op "state") in the tail' });
      if (entry.op === 'identity') this.identities.push(entry.identity);
      this.index(entry, line.offset, line.length + 1);
      good = line.offset + line.length + 1;
      progress.tick(file, line.offset);
    }
    if (pending) this.dropTail(pending.offset, `the last line of ${file}, which is not JSON (a write interrupted before it was answered)`);
    this.size = pending ? pending.offset : Math.max(good, this.size);
    // A tail beside a snapshot must say which generation it follows (else the next start takes it for a stale one).
    if (this.size === 0 && this.generation > 0) this.replaceStaleTail(false);
  }

  private dropTail(offset: number, what: string): void {
    ftruncateSync(this.fd!, offset);
    fsyncSync(this.fd!);
    this.size = offset;
    this.notes.push(`sandbox: dropped ${what}`);
  }

  /** The tail is older than the snapshot: replaced by an empty one of the snapshot's generation. */
  private replaceStaleTail(stale = true): void {
    const dir = path.dirname(this.location);
    const tmp = `${this.location}.tmp`;
    const fd = openSync(tmp, 'w+', 0o600);
    const head = Buffer.from(`${JSON.stringify({ v: ENTRY_VERSION, op: 'begin', generation: this.generation, at: new Date().toISOString() })}\n`);
    for (let off = 0; off < head.length; ) off += writeSync(fd, head, off, head.length - off);
    fsyncSync(fd);
    renameSync(tmp, this.location);
    fsyncDir(dir);
    closeSync(this.fd!);
    this.fd = fd;
    this.size = head.length;
    this.tailEntries = 0;
    for (const lines of this.stores.values()) lines.tail = [];
    if (stale) this.notes.push(`sandbox: dropped ${path.basename(this.location)} of an earlier generation (a compaction was interrupted after its snapshot was written; the snapshot holds every write)`);
  }

  private lines(store: string): StoreLines {
    let lines = this.stores.get(store);
    if (!lines) this.stores.set(store, (lines = { state: [], tail: [] }));
    return lines;
  }

  /** Without --data-dir: the entry as a JSON line, the store's lines folded into one every MEMORY_FOLD. */
  private remember(entry: Entry): void {
    if (entry.op === 'identity') return;
    if (entry.op === 'reset') {
      this.memory.delete(entry.store);
      return;
    }
    let lines = this.memory.get(entry.store);
    if (!lines) this.memory.set(entry.store, (lines = []));
    lines.push(JSON.stringify(entry));
    if (lines.length >= MEMORY_FOLD) {
      const fold = new Fold();
      for (const line of lines) fold.add(JSON.parse(line) as Entry);
      this.memory.set(
        entry.store,
        fold.entries(entry.store, entry.at).map((e) => JSON.stringify(e)),
      );
    }
  }

  private index(entry: Entry, offset: number, length: number): void {
    this.tailEntries++;
    // Identities are the sandbox's (Identities), read once at start.
    if (entry.op === 'identity') return;
    // A reset makes the store's earlier writes irrelevant: they are forgotten, and the reset itself needs no replay.
    if (entry.op === 'reset') {
      this.stores.delete(entry.store);
      return;
    }
    this.lines(entry.store).tail.push(offset, length);
  }
}

/**
 * A store's changes since its reset, folded: the last record of each key (a stock move applied to the
 * product's record when there is one, else kept as the variant's last lots), in the order that rebuilds
 * the world's Maps in the same order as the writes did (records in order of first write; a deleted cart
 * moved to the end, and again when it is written after its deletion).
 */
export class Fold {
  private changes = 0;
  private readonly keys = new Map<string, FoldValue>();

  add(entry: Entry): void {
    if (entry.op === 'identity') return;
    if (entry.op === 'reset') {
      this.keys.clear();
      this.changes = 0;
      return;
    }
    if (entry.op === 'state') this.changes = entry.changes;
    for (const put of entry.puts) {
      this.put(put);
      if (entry.op === 'put') this.changes++;
    }
  }

  private put(put: Put): void {
    switch (put.kind) {
      case 'product': {
        this.keys.set(`p:${put.record.id}`, { kind: 'product', record: put.record });
        return;
      }
      case 'stock': {
        const key = `p:${put.product_id}`;
        const value = this.keys.get(key) as Extract<FoldValue, { kind: 'product' }> | undefined;
        if (value?.record) value.record = withInventory(value.record, put.variant_id, put.inventory);
        else if (value) value.stock!.set(put.variant_id, put.inventory);
        else this.keys.set(key, { kind: 'product', stock: new Map([[put.variant_id, put.inventory]]), productId: put.product_id });
        return;
      }
      case 'customer':
        this.keys.set(`u:${put.record.id}`, { kind: 'customer', record: put.record });
        return;
      case 'order':
        this.keys.set(`o:${put.record.order_number}`, { kind: 'order', record: put.record });
        return;
      case 'cart': {
        const key = `c:${put.record.id}`;
        const value = this.keys.get(key) as Extract<FoldValue, { kind: 'cart' }> | undefined;
        if (value?.deleted && !value.record) {
          // Written again after its deletion: it goes to the end of the world's carts.
          this.keys.delete(key);
          this.keys.set(key, { kind: 'cart', deleted: true, record: put.record });
        } else this.keys.set(key, { kind: 'cart', deleted: value?.deleted ?? false, record: put.record });
        return;
      }
      case 'cart-deleted': {
        const key = `c:${put.id}`;
        this.keys.delete(key);
        this.keys.set(key, { kind: 'cart', deleted: true, id: put.id });
        return;
      }
    }
  }

  /** The folded changes as state entries (PUTS_PER_LINE puts each); none when nothing changed. */
  entries(store: string, at: string): Entry[] {
    const puts: Put[] = [];
    for (const value of this.keys.values()) {
      if (value.kind === 'product') {
        if (value.record) puts.push({ kind: 'product', record: value.record });
        else for (const [variant_id, inventory] of value.stock!) puts.push({ kind: 'stock', product_id: value.productId!, variant_id, inventory });
      } else if (value.kind === 'cart') {
        const id = value.record?.id ?? value.id!;
        if (value.deleted) puts.push({ kind: 'cart-deleted', id });
        if (value.record) puts.push({ kind: 'cart', record: value.record });
      } else puts.push({ kind: value.kind, record: value.record } as Put);
    }
    if (puts.length === 0 && this.changes === 0) return [];
    const out: Entry[] = [];
    for (let i = 0; i < puts.length || i === 0; i += PUTS_PER_LINE) {
      out.push({ v: ENTRY_VERSION, store, at, op: 'state', changes: this.changes, puts: puts.slice(i, i + PUTS_PER_LINE) });
    }
    return out;
  }
}

type FoldValue =
  | { kind: 'product'; record?: ProductRecord; stock?: Map<string, InventoryLot[]>; productId?: string }
  | { kind: 'customer'; record: CustomerRecord }
  | { kind: 'order'; record: OrderRecord }
  | { kind: 'cart'; deleted: boolean; record?: CartRecord; id?: string };

/** The product with one variant's lots replaced (what a stock move does: catalog-admin.ts withStock). */
export function withInventory(product: ProductRecord, variantId: string, inventory: InventoryLot[]): ProductRecord {
  return {
    ...product,
    variants: product.variants.map((v) => (v.id === variantId ? { ...v, inventory, stock_available: inventory.reduce((n, l) => n + l.stock_quantity, 0) > 0 } : v)),
  };
}

// ---- reading -----------------------------------------------------------------------------------------

interface Line {
  offset: number;
  /** Bytes without the newline. */
  length: number;
  text?: string;
  /** No newline at its end: the last bytes of the file. */
  partial?: boolean;
  /** Longer than MAX_LINE_BYTES (its text is not read). */
  oversize?: boolean;
}

/** The file's lines, read in 1 MB chunks (memory: one chunk plus the longest line, at most MAX_LINE_BYTES). */
function* readLines(fd: number, maxLine = MAX_LINE_BYTES): Generator<Line> {
  const chunk = Buffer.allocUnsafe(1 << 20);
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let lineStart = 0;
  let skipping = false;
  let pos = 0;
  for (;;) {
    const got = readSync(fd, chunk, 0, chunk.length, pos);
    if (got === 0) break;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      if (nl < 0 || nl >= got) break;
      const length = carryBytes + (nl - from);
      if (skipping || length > maxLine) yield { offset: lineStart, length, oversize: true };
      else {
        const text = carryBytes ? Buffer.concat([...carry, chunk.subarray(from, nl)]).toString('utf8') : chunk.toString('utf8', from, nl);
        yield { offset: lineStart, length, text };
      }
      carry = [];
      carryBytes = 0;
      skipping = false;
      from = nl + 1;
      lineStart = pos + from;
    }
    if (from < got) {
      carryBytes += got - from;
      if (carryBytes > maxLine) {
        skipping = true;
        carry = [];
      } else carry.push(Buffer.from(chunk.subarray(from, got)));
    }
    pos += got;
  }
  if (carryBytes > 0) yield { offset: lineStart, length: carryBytes, partial: true, ...(skipping ? { oversize: true } : { text: Buffer.concat(carry).toString('utf8') }) };
}

function* readSpans(fd: number | undefined, spans: readonly number[], location: string): Generator<Buffer> {
  if (fd === undefined || spans.length === 0) return;
  for (let i = 0; i < spans.length; i += 2) {
    const buf = Buffer.allocUnsafe(spans[i + 1]);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, spans[i] + got);
      if (n === 0) throw new Error(`${location}: ended before the entry at byte ${spans[i]} (was the file changed while the workbench ran?)`);
      got += n;
    }
    yield buf;
  }
}

/** A line as an object, or why it is not one. */
function parseLine(line: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return `is not valid JSON (${(e as Error).message})`;
  }
  const unsafe = findUnsafeKey(value);
  if (unsafe !== undefined || !isObject(value)) return `is not a sandbox journal entry${unsafe ? ` (refused key ${unsafe})` : ''}`;
  return value;
}

/** A line of a later format (a newer workbench wrote the data dir): not damage, so not "restore a backup". */
const isNewer = (value: Record<string, unknown>): value is Record<string, unknown> & { v: number } => typeof value.v === 'number' && value.v > ENTRY_VERSION;
const newerVersion = (file: string, n: number, v: number) =>
  new JournalReadError(`${file} line ${n} is in format version ${v}, written by a newer workbench (this one reads versions 1 and 2): start that version with this data dir, or move the data dir away to start from the seed`);

const mb = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes} bytes`);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why the value is not an entry the sandbox writes (version 1 or 2), or undefined. */
function entryProblem(e: Record<string, unknown>, check?: RecordCheck): string | undefined {
  if ((e.v !== 1 && e.v !== 2) || typeof e.store !== 'string') return 'it is not a sandbox journal entry (field v must be 1 or 2, field store a string)';
  const problem = shapeProblem(e, check);
  return problem ? problem : undefined;
}

/** The first field of an entry that is not what the sandbox writes, if any. */
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
  const v2 = e.v === 2;
  if (e.op === 'state') {
    if (!v2) return 'field op "state" is a version-2 entry';
    if (!Number.isInteger(e.changes) || (e.changes as number) < 0) return 'field changes must be a whole number';
  } else if (e.op !== 'put') return `field op must be one of "put", "reset", "identity"${v2 ? ', "state"' : ''}`;
  if (!Array.isArray(e.puts)) return 'field puts must be an array';
  for (const [i, put] of e.puts.entries()) {
    if (!isObject(put)) return `field puts[${i}] must be an object`;
    if (put.kind === 'cart-deleted') {
      if (typeof put.id !== 'string' || put.id === '') return `field puts[${i}].id must be a non-empty string (the removed cart's id)`;
      continue;
    }
    if (put.kind === 'stock' && v2) {
      const problem = stockProblem(put);
      if (problem) return `field puts[${i}].${problem}`;
      continue;
    }
    if (put.kind !== 'product' && put.kind !== 'customer' && put.kind !== 'cart' && put.kind !== 'order') {
      return `field puts[${i}].kind must be one of "product", "customer", "cart", "order", "cart-deleted"${v2 ? ', "stock"' : ''}`;
    }
    if (!isObject(put.record)) return `field puts[${i}].record must be an object`;
    const problem = check?.(put.kind, put.record);
    if (problem) return problem.replace(/^field /, `field puts[${i}].record.`).replace('record.[', 'record[');
  }
  return undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A stock move's fields (InventoryLot's schema, written out: lot_batch, manufacturer, dates, stock_quantity). */
function stockProblem(put: Record<string, unknown>): string | undefined {
  if (typeof put.product_id !== 'string' || put.product_id === '') return 'product_id must be a non-empty string';
  if (typeof put.variant_id !== 'string' || put.variant_id === '') return 'variant_id must be a non-empty string';
  if (!Array.isArray(put.inventory)) return 'inventory must be an array of lots';
  for (const [j, lot] of put.inventory.entries()) {
    if (!isObject(lot)) return `inventory[${j}] must be an object`;
    if (typeof lot.lot_batch !== 'string' || typeof lot.manufacturer !== 'string') return `inventory[${j}].lot_batch and .manufacturer must be strings`;
    if (typeof lot.mfg_date !== 'string' || !DATE.test(lot.mfg_date) || typeof lot.exp_date !== 'string' || !DATE.test(lot.exp_date)) return `inventory[${j}].mfg_date and .exp_date must be YYYY-MM-DD dates`;
    if (typeof lot.stock_quantity !== 'number' || !(lot.stock_quantity >= 0 && lot.stock_quantity <= 1_000_000_000)) return `inventory[${j}].stock_quantity must be a number from 0 to 1000000000`;
  }
  return undefined;
}

// ---- writing -----------------------------------------------------------------------------------------

/** Lines gathered in 1 MB buffers and written in order; `position` counts the bytes given so far. */
class BufferedWriter {
  position = 0;
  private parts: Buffer[] = [];
  private held = 0;
  constructor(
    private readonly fd: number,
    private readonly write: NonNullable<JournalOptions['write']>,
  ) {}

  line(value: unknown): void {
    this.raw(Buffer.from(`${JSON.stringify(value)}\n`));
  }

  /** A line as bytes, its newline included. */
  raw(bytes: Buffer): void {
    this.parts.push(bytes);
    this.held += bytes.length;
    this.position += bytes.length;
    if (this.held >= 1 << 20) this.flush();
  }

  flush(): void {
    if (this.held === 0) return;
    const all = Buffer.concat(this.parts, this.held);
    for (let off = 0; off < all.length; ) off += this.write(this.fd, all, off, all.length - off);
    this.parts = [];
    this.held = 0;
  }
}

/** Progress of a long start: a line every second once the read takes longer than one. */
class Progress {
  private readonly started = Date.now();
  private last = Date.now();
  private lines = 0;
  constructor(private readonly log?: (line: string) => void) {}

  tick(file: string, offset: number): void {
    if (++this.lines % 4096 !== 0) return;
    const now = Date.now();
    if (now - this.last < 1000) return;
    this.last = now;
    this.say(`sandbox: reading ${path.basename(file)}: ${this.lines.toLocaleString('en-US')} lines, ${(offset / 1024 / 1024).toFixed(1)} MB, ${((now - this.started) / 1000).toFixed(1)} s`);
  }

  done(tailEntries: number): void {
    const ms = Date.now() - this.started;
    if (ms >= 1000) this.say(`sandbox: read ${this.lines.toLocaleString('en-US')} journal lines in ${(ms / 1000).toFixed(1)} s (${tailEntries.toLocaleString('en-US')} in the tail)`);
  }

  private say(line: string): void {
    (this.log ?? ((l) => process.stderr.write(`${l}\n`)))(line);
  }
}

/** The test hook: SFC_TEST_COMPACTION_CRASH_AT=<point> kills the process (SIGKILL, as kill -9) at that point of a compaction. */
function crashHook(): (point: CompactionPoint) => void {
  const wanted = typeof process === 'undefined' ? undefined : process.env.SFC_TEST_COMPACTION_CRASH_AT;
  if (!wanted) return () => {};
  return (point) => {
    if (point === wanted) process.kill(process.pid, 'SIGKILL');
  };
}

/** A file written by an older run with wider permissions is narrowed: it holds customers' details. */
function narrow(fd: number, file: string): void {
  if ((fstatSync(fd).mode & 0o077) !== 0) chmodSync(file, 0o600);
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
