// The simulator's retention: what history it keeps, and the pruning that enforces it in bounded steps.
//
// Kept, per store, by the store's own clock (../clock): events (with every attempt of them) younger than
// `maxAgeMs` (default 30 days, register AD-051), at most the newest `maxEvents` events that went to a
// subscription (default 10,000) and the newest `maxUnreceived` events that no subscription received
// (default 1,000: they only serve replays, `webhooks listen --replay-since`), whichever bound comes first.
// Never pruned: an event with an attempt scheduled or in flight (a pending retry, a claim being sent).
//
// A pass walks the stores with events and deletes at most BATCH events per transaction, yielding to the
// event loop (setImmediate) between steps, so a backlog of 100,000 events is pruned without holding up
// deliveries. Passes run at start, after every PASS_EVERY events raised, when a store's clock moves, and
// every PASS_INTERVAL_MS (age). Freed pages go back to the file system with PRAGMA incremental_vacuum in
// bounded steps (auto_vacuum = INCREMENTAL, store.ts): a periodic VACUUM would rewrite the whole file in one
// synchronous call (seconds for a large file, with twice the disk space), blocking every delivery meanwhile.
import type { Retention, SimulatorStore } from './store.js';

export type { Retention };

export const DEFAULT_RETENTION: Retention = { maxAgeMs: 30 * 24 * 3600 * 1000, maxEvents: 10_000, maxUnreceived: 1_000 };

/** Events deleted per transaction: about a millisecond or two of work each. */
const BATCH = 200;
/** Free pages given back per step (4 KiB each: 1 MiB). */
const VACUUM_PAGES = 256;
/** Free pages tolerated without a vacuum (SQLite reuses them for new rows anyway). */
const VACUUM_ABOVE = 1024;
const PASS_EVERY = 500;
const PASS_INTERVAL_MS = 60_000;

/** The retention in words, for messages: "30 days, the newest 10,000 delivered and 1,000 unreceived events per store". */
export function describeRetention(r: Retention): string {
  const days = r.maxAgeMs / 86_400_000;
  const age = Number.isInteger(days) ? `${days} day${days === 1 ? '' : 's'}` : `${+(r.maxAgeMs / 3_600_000).toFixed(3)} hours`;
  return `${age}, and per store the newest ${r.maxEvents.toLocaleString('en-US')} events sent to a subscription and ${r.maxUnreceived.toLocaleString('en-US')} events no subscription received`;
}

/**
 * Parses `--webhook-retention days=30,events=10000,unreceived=1000` (any subset; the rest keep their
 * defaults). Throws a RangeError naming the problem.
 */
export function parseRetention(raw: string): Retention {
  const r = { ...DEFAULT_RETENTION };
  for (const part of raw.split(',')) {
    const m = /^(days|events|unreceived)=(\d+(?:\.\d+)?)$/.exec(part.trim());
    if (!m) throw new RangeError(`"${part.trim().slice(0, 40)}" is not key=value with a key of days, events, unreceived (e.g. days=7,events=5000)`);
    const n = Number(m[2]);
    if (m[1] === 'days') {
      if (!(n > 0)) throw new RangeError('days must be more than 0');
      r.maxAgeMs = n * 86_400_000;
    } else {
      if (!Number.isInteger(n)) throw new RangeError(`${m[1]} must be a whole number`);
      if (m[1] === 'events') r.maxEvents = n;
      else r.maxUnreceived = n;
    }
  }
  return r;
}

export class Pruner {
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private raised = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: SimulatorStore,
    private readonly o: { retention: Retention; now: (storeId: string) => number; onError: (e: Error) => void },
  ) {
    this.timer = setInterval(() => this.schedule(), PASS_INTERVAL_MS);
    this.timer.unref();
  }

  /** Counts raised events; every PASS_EVERY of them starts a pass. */
  noteRaised(): void {
    if (++this.raised >= PASS_EVERY) this.schedule();
  }

  /** Starts a pass (or one more after the current one); resolves when the passes asked for are done. */
  schedule(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.raised = 0;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again && !this.closed);
      } catch (e) {
        this.o.onError(e as Error);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async pass(): Promise<void> {
    let pruned = 0;
    for (let store = this.store.nextStoreWithEvents(''); store !== undefined && !this.closed; store = this.store.nextStoreWithEvents(store)) {
      for (;;) {
        const n = this.store.pruneStep(store, this.o.now(store), this.o.retention, BATCH);
        pruned += n;
        await yieldTurn();
        if (n < BATCH || this.closed) break;
      }
    }
    if (this.closed) return;
    if (pruned > 0) {
      for (let left = this.store.freePages(); left > VACUUM_ABOVE && !this.closed; ) {
        left = this.store.vacuumStep(VACUUM_PAGES);
        await yieldTurn();
      }
      if (!this.closed) this.store.checkpoint();
    }
  }

  /** Stops: no new pass; the one running stops after its current step. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
