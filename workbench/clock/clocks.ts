// One virtual clock per store, shared by the sandbox (dates of its world, cart and coupon expiry, token
// lifetimes), the webhook simulator (event times, attempt times, the retry ladder) and the back office.
// A store's clock is the wall clock until someone sets it; then it either runs from the time it was set
// to (wall clock plus an offset) or stays frozen there until it is moved again. Stores with their own
// clock are few (at most MAX_STORE_CLOCKS); with a data directory they are kept in the workbench's database
// (one settings row, ../store/settings.ts; `clocks.json` in 0.2.x, 0600, replaced atomically), so a restart keeps every store's time and the retries due in it. A store on the
// wall clock has no entry: putting a store back (DELETE, or setting it to run at the wall clock's time)
// removes its entry, anchor and all, so its place among the MAX_STORE_CLOCKS is free again.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SettingKeeping } from '../store/settings.js';
import { MAX_STORES_WITH_SETTINGS } from '../store/bounds.js';

/** How many stores may have a clock of their own at once (each costs a little on every scheduler pass): the store's one bound. */
export const MAX_STORE_CLOCKS = MAX_STORES_WITH_SETTINGS;
/** The range a clock can be set to: far enough for any test, near enough that dates stay four-digit years. */
export const EARLIEST = Date.parse('2000-01-01T00:00:00Z');
export const LATEST = Date.parse('2100-01-01T00:00:00Z');
const FILE = 'clocks.json';

export type ClockState =
  /** Runs with the wall clock, `offsetMs` ahead (negative: behind). */
  | { kind: 'running'; offsetMs: number }
  /** Stands still at `at` until moved. */
  | { kind: 'frozen'; at: number };

interface Entry {
  state: ClockState;
  /** The day (UTC midnight, ms) the store's seeded world is dated from, when it is not the process's own. */
  anchor?: number;
}

/** What the back office shows of a store's clock. */
export interface ClockView {
  store_id: string;
  now: string;
  frozen: boolean;
  /** Store time minus wall time, in ms (a frozen clock's offset keeps changing). */
  offset_ms: number;
  /** True when the store follows the wall clock (never set, or set back with DELETE). */
  wall_clock: boolean;
}

export class ClockError extends Error {}

/** Where the clocks are kept between runs: their JSON text, read once at start and written whole on each change (a settings row of the store, or a file). */
export type ClockKeeping = SettingKeeping;

/** The clocks in a file of their own (0600, replaced atomically): `clocks.json` of 0.2.x. */
export function clocksFile(file: string): ClockKeeping {
  return {
    location: file,
    forget: 'delete the file',
    // Stryker disable next-line StringLiteral: without an encoding the Buffer is read as UTF-8 text by JSON.parse all the same
    read: () => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
    write(text) {
      const tmp = `${file}.tmp`;
      mkdirSync(join(file, '..'), { recursive: true });
      const fd = openSync(tmp, 'w', 0o600);
      try {
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, file);
    },
  };
}

export class Clocks {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(storeId: string) => void>();
  /** shifted(), derived from `entries`: dropped whenever they change. */
  private shiftedCache: Map<string, ClockState> | undefined;

  private constructor(
    private readonly wall: () => number,
    private readonly kept: ClockKeeping | undefined,
    /** How many stores may have a clock of their own (MAX_STORE_CLOCKS; tests lower it). */
    readonly maxStores: number,
  ) {}

  /**
   * The clocks kept by `kept` (the workbench's database: ../store/settings.ts), or in `<dataDir>/clocks.json`
   * (the file of 0.2.x, still read by ../upgrade/), read now; or in memory.
   */
  static open(options: { dataDir?: string; kept?: ClockKeeping; wall?: () => number; maxStores?: number } = {}): Clocks {
    const kept = options.kept ?? (options.dataDir ? clocksFile(join(options.dataDir, FILE)) : undefined);
    const clocks = new Clocks(options.wall ?? Date.now, kept, options.maxStores ?? MAX_STORE_CLOCKS);
    const text = kept?.read();
    if (kept && text !== undefined) clocks.load(kept.location, text, kept.forget);
    return clocks;
  }

  /** The wall clock (ms since the epoch). */
  wallNow(): number {
    return this.wall();
  }

  /** The store's time (ms since the epoch). */
  now(storeId: string): number {
    const entry = this.entries.get(storeId);
    if (!entry || isWall(entry.state)) return this.wall();
    return entry.state.kind === 'frozen' ? entry.state.at : this.wall() + entry.state.offsetMs;
  }

  /**
   * Stores whose clock is not the wall clock, with their state. The scheduler reads it on every pass, so it
   * is built once per change of the registry, not per call.
   */
  shifted(): ReadonlyMap<string, ClockState> {
    if (!this.shiftedCache) {
      this.shiftedCache = new Map();
      for (const [store, entry] of this.entries) {
        // Stryker disable next-line ConditionalExpression: no entry holds the wall clock's state (set() and load() drop it), so the filter never removes one
        if (!isWall(entry.state)) this.shiftedCache.set(store, entry.state);
      }
    }
    return this.shiftedCache;
  }

  /** True when some store has a clock of its own. */
  get anyShifted(): boolean {
    return this.shifted().size > 0;
  }

  view(storeId: string): ClockView {
    const state = this.entries.get(storeId)?.state ?? { kind: 'running', offsetMs: 0 };
    const now = this.now(storeId);
    return {
      store_id: storeId,
      now: new Date(now).toISOString(),
      frozen: state.kind === 'frozen',
      offset_ms: now - this.wall(),
      wall_clock: isWall(state),
    };
  }

  /** True when the store follows the wall clock (never set, or put back). */
  onWallClock(storeId: string): boolean {
    return !this.shifted().has(storeId);
  }

  /**
   * Throws a ClockError when `storeId` has no clock of its own yet and `maxStores` stores have one. Only
   * clocks of their own count: a store on the wall clock holds no place, whatever it did before.
   */
  ensureRoom(storeId: string): void {
    const shifted = this.shifted();
    if (shifted.has(storeId) || shifted.size < this.maxStores) return;
    const oldest = String(shifted.keys().next().value).slice(0, 80);
    throw new ClockError(
      `${this.maxStores} stores already have a clock of their own; put one back on the wall clock to free its place: DELETE /__simulator/stores/{store_id}/clock (the longest held is store "${oldest}")`,
    );
  }

  /** Sets the store's time to `at`; `frozen` keeps it there (default: keeps the clock's current mode). */
  set(storeId: string, at: number, frozen?: boolean): void {
    if (!Number.isFinite(at) || at < EARLIEST || at >= LATEST) throw new ClockError(`a clock is set between ${iso(EARLIEST)} and ${iso(LATEST)}`);
    this.ensureRoom(storeId);
    const entry = this.entries.get(storeId);
    const freeze = frozen ?? entry?.state.kind === 'frozen';
    const state: ClockState = freeze ? { kind: 'frozen', at } : { kind: 'running', offsetMs: at - this.wall() };
    // Running at the wall clock's own time is the wall clock: no entry (as DELETE leaves it).
    if (isWall(state)) this.entries.delete(storeId);
    else this.entries.set(storeId, { ...entry, state });
    this.changed(storeId);
  }

  /**
   * Back to the wall clock: the store's entry goes, its reset anchor with it, and its place is free. Its
   * seeded world is dated from the sandbox's day again, as every store's on the wall clock (the sandbox
   * drops the world it held, dated from the anchor, when told of the change).
   */
  release(storeId: string): void {
    if (!this.entries.delete(storeId)) return;
    this.changed(storeId);
  }

  /** The day the store's seeded world was last dated from (set by a reset), if not the process's own. */
  anchorOf(storeId: string): number | undefined {
    return this.entries.get(storeId)?.anchor;
  }

  /**
   * Records the day a reset dated the store's seeded world from. Only a store with a clock of its own has
   * one: a store on the wall clock is dated from the sandbox's day (the sandbox does not ask), so nothing is
   * recorded for it, and an entry left by an older version (the wall clock with an anchor) is dropped.
   */
  setAnchor(storeId: string, anchor: number | undefined): void {
    const entry = this.entries.get(storeId);
    if (!entry || entry.anchor === anchor) return;
    // Stryker disable next-line ConditionalExpression: { anchor: undefined } reads and persists as no anchor (JSON drops undefined)
    const next: Entry = { state: entry.state, ...(anchor === undefined ? {} : { anchor }) };
    // Stryker disable next-line ConditionalExpression: no entry holds the wall clock's state (set() and load() drop it); kept for safety
    if (isWall(entry.state)) this.entries.delete(storeId);
    else this.entries.set(storeId, next);
    this.persist();
  }

  /** Called with the store id after its clock changed (the simulator re-arms its timer). */
  onChange(listener: (storeId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(storeId: string): void {
    this.persist();
    for (const l of this.listeners) l(storeId);
  }

  /** After any change of `entries`: the derived view is dropped, the file rewritten. */
  private persist(): void {
    this.shiftedCache = undefined;
    if (!this.kept) return;
    // Stryker disable next-line ConditionalExpression: an anchor of undefined is dropped by JSON.stringify all the same
    const data = { v: 1, clocks: Object.fromEntries([...this.entries].map(([store, e]) => [store, { ...e.state, ...(e.anchor === undefined ? {} : { anchor: e.anchor }) }])) };
    this.kept.write(JSON.stringify(data));
  }

  private load(file: string, text: string, forget: string): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw new ClockError(`${file}: not JSON (${(e as Error).message}); ${forget} to put every store back on the wall clock`);
    }
    const clocks = (data as { v?: unknown; clocks?: unknown })?.clocks;
    if ((data as { v?: unknown })?.v !== 1 || clocks === null || typeof clocks !== 'object' || Array.isArray(clocks)) {
      throw new ClockError(`${file}: not clocks of this version ({"v":1,"clocks":{...}}); ${forget} to put every store back on the wall clock`);
    }
    // Every value is checked now, so that a hand-edited file stops the start with one line (the CLI: exit 2)
    // instead of a store answering 500 later: the file, the store, the field and the fix.
    const fix = `correct it, remove that store's entry (its clock goes back to the wall clock) or ${forget} (every store goes back)`;
    const refuse = (store: string, field: string, why: string) => new ClockError(`${file}: store "${store.slice(0, 80)}": ${field} ${why}; ${fix}`);
    const span = LATEST - EARLIEST;
    for (const [store, raw] of Object.entries(clocks as Record<string, unknown>)) {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw refuse(store, 'the entry', 'is not {"kind":"running","offsetMs":n} or {"kind":"frozen","at":n}');
      const r = raw as { kind?: unknown; offsetMs?: unknown; at?: unknown; anchor?: unknown };
      const extra = Object.keys(r).find((k) => !['kind', 'offsetMs', 'at', 'anchor'].includes(k));
      if (extra !== undefined) throw refuse(store, `"${extra.slice(0, 40)}"`, 'is not a field of a clock (kind, offsetMs or at, anchor)');
      let state: ClockState;
      if (r.kind === 'running') {
        if (!isNumber(r.offsetMs) || Math.abs(r.offsetMs) > span) throw refuse(store, '"offsetMs"', `is ${shown(r.offsetMs)}, not a number of ms from -${span} to ${span} (the store's time minus the wall clock's)`);
        state = { kind: 'running', offsetMs: r.offsetMs };
      } else if (r.kind === 'frozen') {
        if (!isNumber(r.at) || r.at < EARLIEST || r.at >= LATEST) throw refuse(store, '"at"', `is ${shown(r.at)}, not a time in ms since the epoch from ${EARLIEST} (${iso(EARLIEST)}) to ${LATEST} (${iso(LATEST)}), excluded`);
        state = { kind: 'frozen', at: r.at };
      } else throw refuse(store, '"kind"', `is ${shown(r.kind)}, not "running" or "frozen"`);
      if (r.anchor !== undefined && (!isInteger(r.anchor) || r.anchor < EARLIEST || r.anchor >= LATEST || dayOf(r.anchor) !== r.anchor)) {
        throw refuse(store, '"anchor"', `is ${shown(r.anchor)}, not a UTC midnight in ms since the epoch from ${EARLIEST} to ${LATEST}`);
      }
      // A store on the wall clock holds no entry (an older version kept one for a reset's anchor): dropped.
      if (isWall(state)) continue;
      if (this.entries.size >= this.maxStores) throw refuse(store, 'the entry', `is one more than the ${this.maxStores} stores that may have a clock of their own`);
      // Stryker disable next-line ConditionalExpression: { anchor: undefined } reads and persists as no anchor (JSON drops undefined)
      this.entries.set(store, { state, ...(r.anchor === undefined ? {} : { anchor: r.anchor as number }) });
    }
  }
}

// Stryker disable next-line ConditionalExpression,LogicalOperator: Number.isFinite is false for every non-number, and JSON (the only input) holds no NaN or Infinity
const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
// Stryker disable next-line ConditionalExpression,LogicalOperator: the same, and a fraction is refused by the midnight check (dayOf) where this is used
const isInteger = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
const shown = (x: unknown) => (JSON.stringify(x) ?? String(x)).slice(0, 40);
// Stryker disable next-line ConditionalExpression: a frozen state has no offsetMs, so the second test alone tells them apart
const isWall = (state: ClockState) => state.kind === 'running' && state.offsetMs === 0;
const iso = (ms: number) => new Date(ms).toISOString();

/** UTC midnight of the day `ms` falls in. */
export function dayOf(ms: number): number {
  return ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);
}
