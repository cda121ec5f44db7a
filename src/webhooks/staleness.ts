// Deliveries may arrive out of order (seed 6.1.2): a retry of an older update can land after a newer one.
// The guard remembers, per entity key, the newest `payload.timestamp` applied, and skips an update older
// than that. It records only after the update was applied, so a failed handler does not make its own
// retry look stale.

export interface StalenessStore {
  /** The newest timestamp applied for `key`, or undefined. */
  get(key: string): string | undefined | Promise<string | undefined>;
  /** Remember `timestamp` for `key` (the guard only calls it with a newer value than `get` returned). */
  set(key: string, timestamp: string): void | Promise<void>;
}

export type StalenessOutcome<T> =
  | { applied: true; value: T }
  | { applied: false; reason: 'stale'; /** The newer timestamp already applied. */ latest: string };

export interface StalenessGuard {
  /**
   * Runs `apply` unless an update with a later timestamp was already applied for `key`.
   * Equal timestamps are applied (two events of one instant are both real; exact repeats are the dedupe
   * store's job). Calls for one key run one after another inside this process.
   */
  run<T>(key: string, timestamp: string, apply: () => T | Promise<T>): Promise<StalenessOutcome<Awaited<T>>>;
  /** True when an update with a later timestamp than `timestamp` was already applied for `key`. */
  isStale(key: string, timestamp: string): Promise<boolean>;
  /**
   * How many keys have an update running or queued in this process (0 when idle): what a graceful
   * shutdown waits for. A key is forgotten once its last update settles, so this never grows with the
   * number of keys seen.
   */
  pending(): number;
}

/** In-memory store, bounded: the least recently updated keys are forgotten first. */
export class MemoryStalenessStore implements StalenessStore {
  private readonly latest = new Map<string, string>();
  constructor(private readonly maxEntries = 100_000) {}
  get(key: string): string | undefined {
    return this.latest.get(key);
  }
  set(key: string, timestamp: string): void {
    this.latest.delete(key);
    this.latest.set(key, timestamp);
    if (this.latest.size > this.maxEntries) {
      const oldest = this.latest.keys().next().value;
      if (oldest !== undefined) this.latest.delete(oldest);
    }
  }
}

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An ISO 8601 timestamp as nanoseconds since the epoch, so `…05.1234Z` sorts after `…05.123Z` (Date keeps
 * milliseconds only) and offsets compare correctly. Throws on anything else: the guard must not guess.
 */
export function timestampToNanos(timestamp: string): bigint {
  const m = typeof timestamp === 'string' ? ISO.exec(timestamp) : null;
  const seconds = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(seconds)) throw new TypeError(`staleness guard: not an ISO 8601 date-time with offset: ${JSON.stringify(timestamp)}`);
  const fraction = (m[2] ?? '').slice(0, 9).padEnd(9, '0');
  return BigInt(seconds) * 1_000_000n + BigInt(fraction);
}

export function createStalenessGuard(options: { store?: StalenessStore } = {}): StalenessGuard {
  const store = options.store ?? new MemoryStalenessStore();
  // Per-key queue: without it two updates of one entity could both pass the check before either records.
  const queues = new Map<string, Promise<unknown>>();

  async function isStale(key: string, timestamp: string): Promise<boolean> {
    const latest = await store.get(key);
    return latest !== undefined && timestampToNanos(timestamp) < timestampToNanos(latest);
  }

  async function runNow<T>(key: string, timestamp: string, apply: () => T | Promise<T>): Promise<StalenessOutcome<Awaited<T>>> {
    const incoming = timestampToNanos(timestamp);
    const latest = await store.get(key);
    if (latest !== undefined && incoming < timestampToNanos(latest)) return { applied: false, reason: 'stale', latest };
    const value = await apply();
    if (latest === undefined || incoming > timestampToNanos(latest)) await store.set(key, timestamp);
    return { applied: true, value };
  }

  function run<T>(key: string, timestamp: string, apply: () => T | Promise<T>): Promise<StalenessOutcome<Awaited<T>>> {
    // The queue holds `settled` promises, which never reject: a failed update does not stop the next one.
    const previous = queues.get(key) ?? Promise.resolve();
    const current = previous.then(() => runNow(key, timestamp, apply));
    const settled = current.catch(() => undefined);
    queues.set(key, settled);
    // Drop the queue entry once this is the last call for the key, so the map does not grow forever.
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return current;
  }

  return { run, isStale, pending: () => queues.size };
}
