// De-duplication on `event_id` (seed 6.1.2: delivery is at least once; every retry keeps the event_id).
// A claim is taken before the application's handler runs and is either completed (later deliveries of the
// event are acknowledged without running it again) or released when the handler fails, so the sender's
// retry processes the event again instead of it being lost.

export type ClaimResult =
  /** This delivery owns the event: run the handler, then `complete` or `release`. */
  | 'claimed'
  /** The event was already handled: acknowledge with 2XX, do not run the handler. */
  | 'duplicate'
  /** Another delivery of the same event is being handled right now: answer non-2XX so the sender retries later. */
  | 'in-flight';

/**
 * Storage for claims. Implement it on Redis (`SET key NX PX`), a SQL table with a unique key, etc.
 * `claim` must be atomic across every process that receives deliveries for the same subscription.
 */
export interface DedupeStore {
  claim(eventId: string): ClaimResult | Promise<ClaimResult>;
  complete(eventId: string): void | Promise<void>;
  release(eventId: string): void | Promise<void>;
}

export interface MemoryDedupeOptions {
  /**
   * How long a completed event_id is remembered. The sender retries for about 6 minutes (5 s, 30 s,
   * 5 min, each after a 30 s timeout, seed 3.2); a day also covers manual retries and replays.
   */
  retentionMs?: number;
  /**
   * How long an unfinished claim blocks other deliveries of the event. Longer than the handler may take;
   * after it, a handler that never settled no longer blocks retries.
   */
  claimTtlMs?: number;
  /** Upper bound on remembered ids; the oldest are forgotten first. */
  maxEntries?: number;
  /** Clock, injectable for tests. */
  now?: () => number;
}

interface Entry {
  state: 'in-flight' | 'done';
  expiresAt: number;
}

/** The default store: one process, in memory, bounded in time and size. */
export class MemoryDedupeStore implements DedupeStore {
  private readonly entries = new Map<string, Entry>();
  private readonly retentionMs: number;
  private readonly claimTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: MemoryDedupeOptions = {}) {
    this.retentionMs = options.retentionMs ?? 24 * 60 * 60 * 1000;
    this.claimTtlMs = options.claimTtlMs ?? 5 * 60 * 1000;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  claim(eventId: string): ClaimResult {
    const now = this.now();
    const entry = this.entries.get(eventId);
    if (entry && entry.expiresAt > now) return entry.state === 'done' ? 'duplicate' : 'in-flight';
    this.set(eventId, { state: 'in-flight', expiresAt: now + this.claimTtlMs });
    return 'claimed';
  }

  complete(eventId: string): void {
    this.set(eventId, { state: 'done', expiresAt: this.now() + this.retentionMs });
  }

  release(eventId: string): void {
    this.entries.delete(eventId);
  }

  /** Number of remembered ids (expired ones included until they are swept). */
  get size(): number {
    return this.entries.size;
  }

  private set(eventId: string, entry: Entry): void {
    // Delete then set moves the id to the end of the Map's insertion order, which is what eviction reads.
    this.entries.delete(eventId);
    this.entries.set(eventId, entry);
    if (this.entries.size > this.maxEntries) this.sweep();
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
    // Still too many: forget the least recently touched ids, down to 90% so the O(n) sweep is rare.
    const target = Math.floor(this.maxEntries * 0.9);
    for (const id of this.entries.keys()) {
      if (this.entries.size <= target) break;
      this.entries.delete(id);
    }
  }
}
