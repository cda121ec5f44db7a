// The simulator's durable state in one SQLite file (through ./sqlite.ts): subscriptions, events, and the
// delivery log, whose `scheduled` rows double as the queue of pending retries. Every decision that must
// not race (the 5-enabled limit, one active attempt per event and subscription, claiming an attempt before
// it is sent, what follows an attempt) is one synchronous transaction, so it is atomic within this process
// and, through BEGIN IMMEDIATE and the unique index below, across processes sharing a data directory.
import { LRUCache } from 'lru-cache';
import { openStoreDatabase, stampSchema, type Database, type Statement } from '../store/database.js';
import { openDataDir } from '../upgrade/index.js';
import { ulidTimePrefix } from './ids.js';

export type SubscriptionStatus = 'enabled' | 'disabled';
export type AttemptStatus = 'scheduled' | 'in_flight' | 'succeeded' | 'failed' | 'cancelled';
export type AttemptOutcome = 'delivered' | 'retry_scheduled' | 'failed' | 'webhook_disabled' | 'cancelled';
export type AttemptTrigger = 'event' | 'retry' | 'manual_retry' | 'replay' | 'test';
export type ErrorClass =
  | 'http_status'
  | 'redirect'
  | 'timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'dns_error'
  | 'tls_error'
  | 'blocked_address'
  | 'network_error';

/** A subscription without its secret: the secret is read only where a body is signed (`secretOf`). */
export interface Subscription {
  id: string;
  storeId: string;
  url: string;
  events: string[];
  customHeaders: Record<string, string>;
  marketplaceId: string | null;
  description: string | null;
  status: SubscriptionStatus;
  disabledReason: string | null;
  disabledAt: number | null;
  secretRotatedAt: number | null;
  createdAt: number;
  modifiedAt: number;
}

export interface EventRecord {
  eventId: string;
  storeId: string;
  event: string;
  isTest: boolean;
  /** The envelope's `payload` as JSON text: identical bytes in every attempt of the event. */
  payloadJson: string;
  createdAt: number;
}

export interface AttemptRow {
  seq: number;
  delivery_id: string;
  store_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  is_test: number;
  attempt: number;
  /** Position in its delivery sequence (first attempt, replay or manual retry = 1): drives the retry delays. */
  sequence_attempt: number;
  /** 0 for a manual retry: a single attempt, no automatic retries follow (register AD-042). */
  auto_retry: number;
  trigger: AttemptTrigger;
  url: string;
  status: AttemptStatus;
  outcome: AttemptOutcome | null;
  scheduled_at: number;
  sent_at: number | null;
  completed_at: number | null;
  duration_ms: number | null;
  response_status: number | null;
  error_class: ErrorClass | null;
  response_body_excerpt: string | null;
  response_body_truncated: number;
  next_retry_at: number | null;
  claimed_by: string | null;
  lease_until: number | null;
  created_at: number;
}

export interface NewAttempt {
  deliveryId: string;
  webhookId: string;
  trigger: AttemptTrigger;
  url: string;
  scheduledAt: number;
  autoRetry: boolean;
}

/** What a claimed attempt needs to be sent, read in the same transaction that claimed it. */
export interface Claim {
  row: AttemptRow;
  secret: string;
  customHeaders: Record<string, string>;
  payloadJson: string;
}

export interface AttemptResult {
  completedAt: number;
  responseStatus: number | null;
  errorClass: ErrorClass | null;
  excerpt: string | null;
  truncated: boolean;
}

export interface CompletionPolicy {
  maxAttempts: number;
  retryDelaysMs: readonly number[];
  isSuccess(status: number): boolean;
  isDisable(status: number): boolean;
}

export interface Completion {
  row: AttemptRow;
  /** The automatic retry inserted by this completion, if any. */
  next?: AttemptRow;
  disabledWebhook?: string;
}

export interface DeliveryFilter {
  webhookId?: string;
  event?: string;
  eventId?: string;
  status?: AttemptStatus;
}

interface SubscriptionRow {
  id: string;
  store_id: string;
  url: string;
  events: string;
  custom_headers: string;
  marketplace_id: string | null;
  description: string | null;
  status: SubscriptionStatus;
  disabled_reason: string | null;
  disabled_at: number | null;
  secret: string;
  secret_rotated_at: number | null;
  created_at: number;
  modified_at: number;
}

const TABLES = `
CREATE TABLE IF NOT EXISTS subscriptions (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  custom_headers TEXT NOT NULL,
  marketplace_id TEXT,
  description TEXT,
  status TEXT NOT NULL,
  disabled_reason TEXT,
  disabled_at INTEGER,
  secret TEXT NOT NULL,
  secret_rotated_at INTEGER,
  created_at INTEGER NOT NULL,
  modified_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS subscriptions_store ON subscriptions(store_id, status);
CREATE TABLE IF NOT EXISTS events (
  event_id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL,
  event TEXT NOT NULL,
  is_test INTEGER NOT NULL,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  -- 1 once an attempt of the event was queued (at its raise, or by a replay); 0 = no subscription got it.
  received INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS attempts (
  seq INTEGER PRIMARY KEY,
  delivery_id TEXT NOT NULL UNIQUE,
  store_id TEXT NOT NULL,
  webhook_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event TEXT NOT NULL,
  is_test INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  sequence_attempt INTEGER NOT NULL,
  auto_retry INTEGER NOT NULL,
  trigger TEXT NOT NULL,
  url TEXT NOT NULL,
  status TEXT NOT NULL,
  outcome TEXT,
  scheduled_at INTEGER NOT NULL,
  sent_at INTEGER,
  completed_at INTEGER,
  duration_ms INTEGER,
  response_status INTEGER,
  error_class TEXT,
  response_body_excerpt TEXT,
  response_body_truncated INTEGER NOT NULL DEFAULT 0,
  next_retry_at INTEGER,
  claimed_by TEXT,
  lease_until INTEGER,
  created_at INTEGER NOT NULL
);
-- Per store, what the retention pruned: the newest creation time (store clock) of a pruned event and of a
-- pruned attempt, and how many events, so a replay or retry of a pruned one is told so.
CREATE TABLE IF NOT EXISTS pruned (
  store_id TEXT PRIMARY KEY,
  before INTEGER NOT NULL,
  log_before INTEGER NOT NULL,
  events INTEGER NOT NULL
);
`;

const INDEXES = `
CREATE INDEX IF NOT EXISTS attempts_due ON attempts(scheduled_at) WHERE status = 'scheduled';
CREATE INDEX IF NOT EXISTS attempts_lease ON attempts(lease_until) WHERE status = 'in_flight';
CREATE INDEX IF NOT EXISTS attempts_store ON attempts(store_id, seq);
-- By event first: serves the (webhook_id, event_id) look-ups and the retention's "attempts of this event".
DROP INDEX IF EXISTS attempts_event;
CREATE INDEX IF NOT EXISTS attempts_by_event ON attempts(event_id, webhook_id);
-- The retention's count bounds: a store's received and unreceived events, oldest first.
CREATE INDEX IF NOT EXISTS events_retention ON events(store_id, received, created_at);
-- The delivery rule concurrencyPerEventAndSubscription = 1, enforced by the database itself: never two
-- attempts of one event to one subscription scheduled or in flight at once.
CREATE UNIQUE INDEX IF NOT EXISTS attempts_one_active ON attempts(webhook_id, event_id) WHERE status IN ('scheduled', 'in_flight');
`;

/** Bounds of the payload cache: how many, and how many characters in all (about 16 MB of text). */
const MAX_CACHED_PAYLOADS = 5000;
const MAX_CACHED_PAYLOAD_CHARS = 16 * 1024 * 1024;

/** Store id -> that store's time now, for the stores with a clock of their own (../clock/clocks.ts). */
export type ClockTimes = ReadonlyMap<string, number>;

export class SimulatorStore {
  private readonly s: Record<string, Statement<any>>;
  /**
   * Event payloads never change once stored: recent ones of events that have attempts to send are kept
   * here so sending does not re-read them, bounded by count and by bytes (a payload can be large, and a
   * store raising many events must not grow the heap with them).
   */
  private readonly payloads = new LRUCache<string, string>({ max: MAX_CACHED_PAYLOADS, maxSize: MAX_CACHED_PAYLOAD_CHARS, sizeCalculation: (payload) => Math.max(1, payload.length) });
  /**
   * Subscriptions as last read, by id. Valid while `PRAGMA data_version` is unchanged (it changes only when
   * another connection commits) and cleared on every write through this store, so a rotation or a disable
   * is seen by the very next attempt, from this process or another one sharing the data directory.
   */
  private subCache = new Map<string, { row: SubscriptionRow; headers: Record<string, string> }>();
  private subCacheVersion = -1;
  /** Subscriptions changed since scheduled attempts of non-enabled ones were last cancelled (claimTx). */
  private sweepOrphans = true;
  /** Multi-row inserts of an event's first attempts, by row count. */
  private readonly insertMany = new Map<number, Statement<unknown>>();
  /** Enabled subscriptions per store, under the same validity rule (the fan-out of every event reads it). */
  private enabledCache = new Map<string, Subscription[]>();
  // A transaction function per db.transaction() call; built once here instead.
  private readonly tx: {
    claim: (now: number, limit: number, owner: string, leaseUntil: number, clocks: ClockTimes | undefined) => Claim[];
    batch: <T>(fn: () => T) => T;
    together: <T>(fn: () => T) => T;
    failure: (claimed: AttemptRow, owner: string, result: AttemptResult, policy: CompletionPolicy, newDeliveryId: () => string) => Completion | undefined;
  };

  /** The file is in WAL mode (an in-memory store is not). */
  private readonly wal: boolean;

  /**
   * Group commit: events raised (with their first attempts) wait here, validated and complete, and are
   * written by the next transaction of this store: the scheduler's pump (with the answers it records and
   * the attempts it claims) or `flush()` at the end of the turn (setImmediate) or before a read that must
   * see them. A commit (a WAL append) costs far more than the rows it carries: 64 events raised in one turn
   * cost one commit instead of 64. The write lock is held only inside that one synchronous transaction.
   * Nothing is acknowledged before its commit: nothing is sent before the pump's commit, and HTTP answers
   * wait for `settled()`.
   */
  private outbox: Outbox = [];
  private waiters: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  private flushQueued = false;
  /**
   * Called when an event joins the outbox: by default a flush at the end of this turn. The simulator
   * sets it to wake its scheduler instead, whose pump writes the outbox in the transaction that claims
   * the new attempts: one commit per turn, not two.
   */
  onEventsQueued: () => void = () => {
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      try {
        if (this.db.open) this.flush();
      } catch (e) {
        this.onFlushError(e as Error);
      }
    });
  };
  /** A flush that failed with no one waiting on it (in-process triggers): reported here. */
  onFlushError: (error: Error) => void = () => {};

  private constructor(
    private readonly db: Database,
    /** Where the file is, for messages; `:memory:` for tests. */
    readonly location: string,
    /** Closed with this store (opened by `open`); a database shared with other parts is closed by its owner. */
    private readonly ownsDb: boolean,
  ) {
    this.wal = db.pragma('journal_mode') === 'wal';
    db.exec(TABLES);
    // Files of an older version: events get their `received` flag, computed once from the log.
    const migrate = !(db.prepare(`PRAGMA table_info(events)`).all() as Array<{ name: string }>).some((c) => c.name === 'received');
    if (migrate) db.exec(`ALTER TABLE events ADD COLUMN received INTEGER NOT NULL DEFAULT 1`);
    db.exec(INDEXES);
    if (migrate) db.exec(`UPDATE events SET received = EXISTS (SELECT 1 FROM attempts a WHERE a.event_id = events.event_id)`);
    this.s = {
      insertSub: db.prepare(
        `INSERT INTO subscriptions (id, store_id, url, events, custom_headers, marketplace_id, description, status, secret, created_at, modified_at)
         VALUES (@id, @store_id, @url, @events, @custom_headers, @marketplace_id, @description, 'enabled', @secret, @now, @now)`,
      ),
      countEnabled: db.prepare(`SELECT count(*) AS n FROM subscriptions WHERE store_id = ? AND status = 'enabled'`),
      sub: db.prepare(`SELECT * FROM subscriptions WHERE id = ?`),
      subsOfStore: db.prepare(`SELECT * FROM subscriptions WHERE store_id = ? ORDER BY created_at, id`),
      enabledOfStore: db.prepare(`SELECT * FROM subscriptions WHERE store_id = ? AND status = 'enabled' ORDER BY created_at, id`),
      rotate: db.prepare(`UPDATE subscriptions SET secret = ?, secret_rotated_at = ?, modified_at = ? WHERE id = ?`),
      disable: db.prepare(
        `UPDATE subscriptions SET status = 'disabled', disabled_reason = 'subscriber_gone', disabled_at = ?, modified_at = ? WHERE id = ? AND status = 'enabled'`,
      ),
      deleteSub: db.prepare(`DELETE FROM subscriptions WHERE id = ?`),
      insertEvent: db.prepare(`INSERT INTO events (event_id, store_id, event, is_test, payload, created_at, received) VALUES (?, ?, ?, ?, ?, ?, ?)`),
      markReceived: db.prepare(`UPDATE events SET received = 1 WHERE event_id = ? AND received = 0`),
      event: db.prepare(`SELECT * FROM events WHERE event_id = ? AND store_id = ? AND created_at >= ?`),
      eventPayload: db.prepare(`SELECT payload FROM events WHERE event_id = ?`),
      // Event ids are ULIDs whose first characters are the creation time: `event_id >= ?` is a range of the primary key.
      eventsSince: db.prepare(`SELECT event_id, event, is_test, created_at FROM events WHERE event_id >= ? AND store_id = ? AND created_at >= ? ORDER BY event_id LIMIT ?`),
      insertAttempt: db.prepare(
        `INSERT INTO attempts (delivery_id, store_id, webhook_id, event_id, event, is_test, attempt, sequence_attempt, auto_retry, trigger, url, status, scheduled_at, created_at)
         VALUES (@delivery_id, @store_id, @webhook_id, @event_id, @event, @is_test, @attempt, @sequence_attempt, @auto_retry, @trigger, @url, 'scheduled', @scheduled_at, @created_at)`,
      ),
      attemptById: db.prepare(`SELECT * FROM attempts WHERE delivery_id = ?`),
      delivery: db.prepare(`SELECT * FROM attempts WHERE delivery_id = ? AND webhook_id = ? AND store_id = ? AND created_at >= ?`),
      active: db.prepare(`SELECT * FROM attempts WHERE webhook_id = ? AND event_id = ? AND status IN ('scheduled', 'in_flight')`),
      maxAttempt: db.prepare(`SELECT max(attempt) AS n FROM attempts WHERE webhook_id = ? AND event_id = ?`),
      // Claims the first `limit` due attempts of enabled subscriptions in one statement (one call into the
      // driver, not a SELECT and an UPDATE per row), with the subscription's current url. Rows in no order.
      claimDue: db.prepareRaw(
        `UPDATE attempts SET status = 'in_flight', sent_at = ?, claimed_by = ?, lease_until = ?,
           url = (SELECT s.url FROM subscriptions s WHERE s.id = attempts.webhook_id)
         WHERE seq IN (
           SELECT a.seq FROM attempts a JOIN subscriptions s ON s.id = a.webhook_id AND s.status = 'enabled'
           WHERE a.status = 'scheduled' AND a.scheduled_at <= ? ORDER BY a.scheduled_at, a.seq LIMIT ?)
         RETURNING ${CLAIMED_COLUMNS}`,
      ),
      // The same when some stores have a clock of their own (../clock): @clocks is a JSON object of store id
      // to that store's time; every other store's time is @now. @latest (the latest of them) bounds the
      // index range; the per-store comparison filters it.
      claimDueClocked: db.prepareRaw(
        `UPDATE attempts SET status = 'in_flight', sent_at = coalesce((SELECT j.value FROM json_each(@clocks) j WHERE j.key = attempts.store_id), @now),
           claimed_by = @owner, lease_until = @lease_until,
           url = (SELECT s.url FROM subscriptions s WHERE s.id = attempts.webhook_id)
         WHERE seq IN (
           SELECT a.seq FROM attempts a JOIN subscriptions s ON s.id = a.webhook_id AND s.status = 'enabled'
           WHERE a.status = 'scheduled' AND a.scheduled_at <= @latest
             AND a.scheduled_at <= coalesce((SELECT j.value FROM json_each(@clocks) j WHERE j.key = a.store_id), @now)
           ORDER BY a.scheduled_at, a.seq LIMIT @limit)
         RETURNING ${CLAIMED_COLUMNS}`,
      ),
      nextDueExcept: db.prepare(`SELECT min(scheduled_at) AS t FROM attempts WHERE status = 'scheduled' AND store_id NOT IN (SELECT key FROM json_each(?))`),
      nextDueOfClocked: db.prepare(
        `SELECT store_id, min(scheduled_at) AS t FROM attempts WHERE status = 'scheduled' AND store_id IN (SELECT key FROM json_each(?)) GROUP BY store_id`,
      ),
      storeNextDue: db.prepare(
        `SELECT min(a.scheduled_at) AS t FROM attempts a JOIN subscriptions s ON s.id = a.webhook_id AND s.status = 'enabled' WHERE a.status = 'scheduled' AND a.store_id = ?`,
      ),
      storeInFlight: db.prepare(`SELECT count(*) AS n FROM attempts WHERE status = 'in_flight' AND store_id = ?`),
      // Scheduled attempts whose subscription is no longer enabled can never be sent: cancelled.
      cancelOrphans: db.prepare(
        `UPDATE attempts SET status = 'cancelled', outcome = 'cancelled', completed_at = ?
         WHERE status = 'scheduled' AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.id = attempts.webhook_id AND s.status = 'enabled')`,
      ),
      cancelOfSub: db.prepare(`UPDATE attempts SET status = 'cancelled', outcome = 'cancelled', completed_at = ? WHERE webhook_id = ? AND status = 'scheduled'`),
      finish: db.prepare(
        `UPDATE attempts SET status = @status, outcome = @outcome, completed_at = @completed_at, duration_ms = @duration_ms, response_status = @response_status,
           error_class = @error_class, response_body_excerpt = @response_body_excerpt, response_body_truncated = @response_body_truncated, next_retry_at = @next_retry_at,
           claimed_by = NULL, lease_until = NULL
         WHERE seq = @seq AND status = 'in_flight' AND claimed_by = @owner`,
      ),
      // Every delivered answer of a pump in one statement: rows as a JSON array of
      // [seq, completed_at, duration_ms, response_status, excerpt, truncated]; only rows `owner` still holds.
      deliveredMany: db
        .prepareRaw(
          `UPDATE attempts SET status = 'succeeded', outcome = 'delivered', completed_at = j.value ->> 1, duration_ms = j.value ->> 2,
             response_status = j.value ->> 3, error_class = NULL, response_body_excerpt = j.value ->> 4, response_body_truncated = j.value ->> 5,
             next_retry_at = NULL, claimed_by = NULL, lease_until = NULL
           FROM json_each(?) AS j WHERE attempts.seq = j.value ->> 0 AND attempts.status = 'in_flight' AND attempts.claimed_by = ? RETURNING attempts.seq`,
        )
        .pluck(),
      subStatus: db.prepare(`SELECT status, url FROM subscriptions WHERE id = ?`),
      dataVersion: db.prepare(`PRAGMA data_version`).pluck(),
      expired: db.prepare(`SELECT * FROM attempts WHERE status = 'in_flight' AND lease_until <= ? ORDER BY lease_until LIMIT 100`),
      renewLease: db.prepare(`UPDATE attempts SET lease_until = ? WHERE seq = ? AND status = 'in_flight' AND claimed_by = ?`),
      nextDue: db.prepare(`SELECT min(scheduled_at) AS t FROM attempts WHERE status = 'scheduled'`),
      nextLease: db.prepare(`SELECT min(lease_until) AS t FROM attempts WHERE status = 'in_flight'`),
      // Retention (./retention.ts). The next store with events after ?, by an index seek.
      nextStore: db.prepare(`SELECT min(store_id) FROM events WHERE store_id > ?`).pluck(),
      // The newest event of a kind (received or not) that the count bound drops: the (N+1)th newest.
      countCut: db.prepare(`SELECT created_at AS t, rowid AS r FROM events WHERE store_id = ? AND received = ? ORDER BY created_at DESC, rowid DESC LIMIT 1 OFFSET ?`),
      // Events before a bound, oldest first, none with an attempt still scheduled or in flight.
      prunable: db.prepare(
        `SELECT event_id, created_at FROM events WHERE store_id = @store AND received = @received AND (created_at, rowid) < (@t, @r)
           AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.event_id = events.event_id AND a.status IN ('scheduled', 'in_flight'))
         ORDER BY created_at, rowid LIMIT @limit`,
      ),
      deleteAttemptsOf: db.prepare(`DELETE FROM attempts WHERE event_id IN (SELECT value FROM json_each(?))`),
      deleteEvents: db.prepare(`DELETE FROM events WHERE event_id IN (SELECT value FROM json_each(?))`),
      lastAttemptOf: db.prepare(`SELECT max(created_at) FROM attempts WHERE event_id IN (SELECT value FROM json_each(?))`).pluck(),
      notePruned: db.prepare(
        `INSERT INTO pruned (store_id, before, log_before, events) VALUES (?, ?, ?, ?)
         ON CONFLICT (store_id) DO UPDATE SET before = max(before, excluded.before), log_before = max(log_before, excluded.log_before), events = events + excluded.events`,
      ),
      prunedOf: db.prepare(`SELECT before, log_before AS logBefore, events FROM pruned WHERE store_id = ?`),
      freePages: db.prepare(`PRAGMA freelist_count`).pluck(),
    };
    const claim = db.transaction(this.claimTx.bind(this));
    const failure = db.transaction(this.failureTx.bind(this));
    // IMMEDIATE: the write lock is taken before the SELECT, so two processes cannot both read a row as due.
    const batch = db.transaction((events: Outbox, fn: () => unknown) => {
      this.writeEvents(events);
      return fn();
    });
    // A write of another part and the events it raises: `fn` first (it queues the events), then they are
    // written, in one transaction.
    const together = db.transaction((fn: () => unknown) => {
      const result = fn();
      const events = this.outbox;
      this.outbox = [];
      this.writeEvents(events);
      return result;
    });
    this.tx = {
      claim: (...a) => claim.immediate(...a),
      failure: (...a) => failure.immediate(...a),
      batch: <T>(fn: () => T) => this.committing((events) => batch.immediate(events, fn) as T),
      together: <T>(fn: () => T) => together.immediate(fn) as T,
    };
  }

  /**
   * Opens (creating if needed) the workbench's database in `dataDir` (../store/database.ts: 0700 directory,
   * 0600 files, WAL) for the simulator alone; no dataDir = an in-memory store.
   */
  static open(dataDir?: string): SimulatorStore {
    const opened = dataDir && dataDir !== ':memory:' ? openDataDir(dataDir) : openStoreDatabase();
    try {
      const store = new SimulatorStore(opened.db, opened.location, true);
      stampSchema(opened.db);
      return store;
    } catch (e) {
      opened.close();
      throw e;
    }
  }

  /** The simulator's tables in a database shared with the other parts (the workbench's one store). */
  static on(db: Database, location: string): SimulatorStore {
    return new SimulatorStore(db, location, false);
  }

  close(): void {
    if (!this.db.open) return;
    try {
      this.flush();
    } finally {
      if (this.ownsDb) this.db.close();
    }
  }

  // ---- group commit --------------------------------------------------------------------------------

  /** Writes raised events with their first attempts; inside a transaction. */
  private writeEvents(events: Outbox): void {
    for (const { event, attempts } of events) {
      this.s.insertEvent.run(event.eventId, event.storeId, event.event, event.isTest ? 1 : 0, event.payloadJson, event.createdAt, attempts.length > 0 ? 1 : 0);
      this.insertFirstAttempts(attempts);
    }
  }

  /**
   * Runs a transaction given the outbox's events to write, then settles their waiters: resolved once it
   * committed; rejected when it failed (those events were never written, and are dropped).
   */
  private committing<T>(run: (events: Outbox) => T): T {
    const events = this.outbox;
    const waiters = this.waiters;
    this.outbox = [];
    this.waiters = [];
    let result: T;
    try {
      result = run(events);
    } catch (e) {
      if (events.length) this.payloads.clear();
      for (const w of waiters) w.reject(e as Error);
      throw e;
    }
    for (const w of waiters) w.resolve();
    return result;
  }

  /**
   * The transactional outbox: `fn` (a write of the sandbox, on this same database) and the events it
   * raises (recordEvent, called inside `fn`) commit in one IMMEDIATE transaction, or not at all. Events
   * raised earlier in this turn are committed first, in their own transaction, so a failed write takes only
   * its own events with it. Throws what `fn` or the commit threw; nothing of the write is kept then.
   */
  writeWith<T>(fn: () => T): T {
    this.flush();
    try {
      return this.tx.together(fn);
    } catch (e) {
      // Events `fn` queued before it failed (or before the commit failed) belong to the write: dropped.
      if (this.outbox.length) this.payloads.clear();
      this.outbox = [];
      throw e;
    }
  }

  /** Commits the events waiting in the outbox now (nothing to do when there are none); throws when that fails. */
  flush(): void {
    if (this.outbox.length) this.tx.batch(() => undefined);
  }

  /**
   * Resolves once every write made so far is committed; undefined when none is pending (nothing to wait
   * for). Whoever tells someone about a write (an HTTP answer) waits for this first.
   */
  settled(): Promise<void> | undefined {
    if (!this.outbox.length) return undefined;
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  // ---- subscriptions -------------------------------------------------------------------------------

  /** Creates an enabled subscription unless the store already has `maxEnabled` enabled ones (atomic). */
  createSubscription(
    input: { id: string; storeId: string; url: string; events: string[]; customHeaders: Record<string, string>; marketplaceId: string | null; description: string | null; secret: string },
    maxEnabled: number,
    now: number,
  ): { ok: true; subscription: Subscription } | { ok: false; enabled: number } {
    return this.db
      .transaction(() => {
        const enabled = (this.s.countEnabled.get(input.storeId) as { n: number }).n;
        if (enabled >= maxEnabled) return { ok: false as const, enabled };
        this.invalidateSubs();
        this.s.insertSub.run({
          id: input.id,
          store_id: input.storeId,
          url: input.url,
          events: JSON.stringify(input.events),
          custom_headers: JSON.stringify(input.customHeaders),
          marketplace_id: input.marketplaceId,
          description: input.description,
          secret: input.secret,
          now,
        });
        return { ok: true as const, subscription: this.subscription(input.storeId, input.id)! };
      })
      .immediate();
  }

  subscription(storeId: string, id: string): Subscription | undefined {
    const row = this.s.sub.get(id) as SubscriptionRow | undefined;
    return row && row.store_id === storeId ? toSubscription(row) : undefined;
  }

  /** The subscription's current signing secret, for the console's signature verdict (workbench/console); never served. */
  secretOf(storeId: string, id: string): string | undefined {
    const row = this.s.sub.get(id) as SubscriptionRow | undefined;
    return row && row.store_id === storeId ? row.secret : undefined;
  }

  subscriptions(storeId: string, onlyEnabled = false): Subscription[] {
    if (!onlyEnabled) return (this.s.subsOfStore.all(storeId) as SubscriptionRow[]).map(toSubscription);
    this.checkVersion();
    let list = this.enabledCache.get(storeId);
    if (!list) {
      list = (this.s.enabledOfStore.all(storeId) as SubscriptionRow[]).map(toSubscription);
      this.enabledCache.set(storeId, list);
    }
    return list;
  }

  /** One page of a store's subscriptions, newest first, optionally of one status (listWebhooks, AD-070). */
  listSubscriptions(storeId: string, status: SubscriptionStatus | undefined, offset: number, limit: number): { subscriptions: Subscription[]; total: number } {
    const clause = status ? 'store_id = ? AND status = ?' : 'store_id = ?';
    const params: unknown[] = status ? [storeId, status] : [storeId];
    const total = (this.db.prepare(`SELECT count(*) AS n FROM subscriptions WHERE ${clause}`).get(...params) as { n: number }).n;
    const rows = this.db.prepare(`SELECT * FROM subscriptions WHERE ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`).all(...params, limit, offset) as SubscriptionRow[];
    return { subscriptions: rows.map(toSubscription), total };
  }

  /**
   * Deletes a subscription (deleteWebhook, AD-072) in one IMMEDIATE transaction: its scheduled attempts are
   * cancelled (the log rows stay), then the row, with its secret and custom header values, is removed, which
   * frees its slot in the enabled limit. An attempt in flight finishes; `failureTx` finds no subscription and
   * schedules no retry, and `claimTx` cancels anything of it that falls due. Returns the record as it was
   * and the number of cancelled attempts, or undefined when the store has no such subscription.
   */
  deleteSubscription(storeId: string, id: string, now: number): { subscription: Subscription; cancelled: number } | undefined {
    this.flush(); // events raised in this turn first: their scheduled attempts are cancelled too
    const deleted = this.db
      .transaction(() => {
        const subscription = this.subscription(storeId, id);
        if (!subscription) return undefined;
        this.invalidateSubs();
        const cancelled = this.s.cancelOfSub.run(now, id).changes;
        this.s.deleteSub.run(id);
        return { subscription, cancelled };
      })
      .immediate();
    if (deleted) this.scrub();
    return deleted;
  }

  rotateSecret(storeId: string, id: string, secret: string, now: number): Subscription | undefined {
    if (!this.subscription(storeId, id)) return undefined;
    this.invalidateSubs();
    this.s.rotate.run(secret, now, now, id);
    this.scrub();
    return this.subscription(storeId, id);
  }

  /**
   * After a secret was rotated or deleted: `secure_delete` zeroed it in the page that held it, but in WAL
   * mode the older page images (the secret's insert, earlier updates) are still frames of the -wal file
   * and the page may not be back in the database file yet. A TRUNCATE checkpoint copies every committed
   * page into the database file and cuts the -wal file to zero bytes, so no file of the data directory
   * holds the old secret any more. Best effort: a reader of another connection in the middle of a read can
   * hold it back (up to the busy timeout); the next rotate or delete checkpoints again.
   */
  private scrub(): void {
    if (!this.wal || this.db.inTransaction) return;
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  // ---- events and attempts -------------------------------------------------------------------------

  /**
   * Stores a new event and its first attempts (one per receiving subscription), atomically, with the other
   * writes of this turn (group commit, above; `settled()` says when they are on disk).
   */
  recordEvent(event: EventRecord, attempts: NewAttempt[]): AttemptRow[] {
    const values = attempts.map((a) => attemptValues(event, a, 1, 1, event.createdAt));
    this.outbox.push({ event, attempts: values });
    // An event no subscription receives is never sent: its payload stays in the table only.
    if (values.length > 0) this.remember(event.eventId, event.payloadJson);
    this.onEventsQueued();
    // `seq` is the table's own counter, given when the row is written; these rows are for answers only.
    return values.map((v) => storedRow(0, v));
  }

  event(storeId: string, eventId: string, since: number): EventRecord | undefined {
    this.flush(); // a read that must see the events raised in this turn
    const row = this.s.event.get(eventId, storeId, since) as
      | { event_id: string; store_id: string; event: string; is_test: number; payload: string; created_at: number }
      | undefined;
    if (!row) return undefined;
    return { eventId: row.event_id, storeId: row.store_id, event: row.event, isTest: row.is_test === 1, payloadJson: row.payload, createdAt: row.created_at };
  }

  /** The store's events raised at or after `since`, oldest first, at most `limit` (what a replay picks from). */
  eventsSince(storeId: string, since: number, limit: number): Array<{ eventId: string; event: string; isTest: boolean; createdAt: number }> {
    this.flush(); // a read that must see the events raised in this turn
    const rows = this.s.eventsSince.all(`evt_${ulidTimePrefix(since)}`, storeId, since, limit) as Array<{ event_id: string; event: string; is_test: number; created_at: number }>;
    return rows.map((r) => ({ eventId: r.event_id, event: r.event, isTest: r.is_test === 1, createdAt: r.created_at }));
  }

  delivery(storeId: string, webhookId: string, deliveryId: string, since: number): AttemptRow | undefined {
    this.flush(); // a read that must see the events raised in this turn
    return this.s.delivery.get(deliveryId, webhookId, storeId, since) as AttemptRow | undefined;
  }

  attempt(deliveryId: string): AttemptRow | undefined {
    this.flush(); // a read that must see the events raised in this turn
    return this.s.attemptById.get(deliveryId) as AttemptRow | undefined;
  }

  /**
   * Queues one more attempt of an existing event (manual retry, replay) unless one is already scheduled or
   * in flight for that event and subscription; the check and the insert are one transaction.
   */
  queueAttempt(event: EventRecord, attempt: NewAttempt, now: number): { ok: true; row: AttemptRow } | { ok: false; active: AttemptRow } {
    this.flush(); // events raised in this turn first: their attempts are active
    return this.db
      .transaction(() => {
        const active = this.s.active.get(attempt.webhookId, event.eventId) as AttemptRow | undefined;
        if (active) return { ok: false as const, active };
        const max = (this.s.maxAttempt.get(attempt.webhookId, event.eventId) as { n: number | null }).n ?? 0;
        if (max === 0) this.s.markReceived.run(event.eventId);
        return { ok: true as const, row: this.insertAttempt(event, attempt, max + 1, 1, now) };
      })
      .immediate();
  }

  private checkVersion(): void {
    const version = this.s.dataVersion.get() as number;
    if (version !== this.subCacheVersion) {
      this.invalidateSubs();
      this.subCacheVersion = version;
    }
  }

  private invalidateSubs(): void {
    this.sweepOrphans = true;
    this.subCache.clear();
    this.enabledCache.clear();
  }

  /** The subscription as cached; call `checkVersion` first (once per transaction is enough). */
  private cachedSub(id: string): { row: SubscriptionRow; headers: Record<string, string> } | undefined {
    let hit = this.subCache.get(id);
    if (!hit) {
      const row = this.s.sub.get(id) as SubscriptionRow | undefined;
      if (!row) return undefined;
      hit = { row, headers: JSON.parse(row.custom_headers) as Record<string, string> };
      this.subCache.set(id, hit);
    }
    return hit;
  }

  /** How many payloads, and characters of them, the send cache holds (for tests and the bench). */
  get payloadCache(): { entries: number; chars: number } {
    return { entries: this.payloads.size, chars: this.payloads.calculatedSize };
  }

  private remember(eventId: string, payloadJson: string): void {
    this.payloads.set(eventId, payloadJson);
  }

  private payloadOf(eventId: string): string {
    const cached = this.payloads.get(eventId);
    if (cached !== undefined) return cached;
    const { payload } = this.s.eventPayload.get(eventId) as { payload: string };
    this.remember(eventId, payload);
    return payload;
  }

  private insertAttempt(event: EventRecord, a: NewAttempt, attempt: number, sequenceAttempt: number, now: number): AttemptRow {
    const values = attemptValues(event, a, attempt, sequenceAttempt, now);
    const { lastInsertRowid } = this.s.insertAttempt.run(values);
    return storedRow(Number(lastInsertRowid), values);
  }

  /**
   * The first attempts of a new event, one per receiving subscription (at most the enabled limit): one
   * multi-row INSERT instead of one per attempt, as each statement is a call into the driver.
   */
  private insertFirstAttempts(values: AttemptValues[]): void {
    if (values.length === 0) return;
    let insert = this.insertMany.get(values.length);
    if (!insert) {
      const row = `(${ATTEMPT_COLUMNS.map(() => '?').join(', ')}, 'scheduled')`;
      insert = this.db.prepare(`INSERT INTO attempts (${ATTEMPT_COLUMNS.join(', ')}, status) VALUES ${Array(values.length).fill(row).join(', ')}`);
      this.insertMany.set(values.length, insert);
    }
    const params: unknown[] = [];
    for (const v of values) for (const c of ATTEMPT_COLUMNS) params.push(v[c]);
    insert.run(...params);
  }

  /**
   * Claims up to `limit` due attempts for `owner`: one UPDATE moves them from `scheduled` to `in_flight`,
   * so no other claimer (a timer of this process, another process on the same data directory, the next run
   * after a restart) can send them too. Attempts of a subscription disabled meanwhile are cancelled instead.
   * The secret is read here, in the same synchronous tick that signs the body.
   */
  /**
   * Runs `fn` atomically in the group of this turn (one IMMEDIATE transaction; the transactions of the
   * calls inside become savepoints): the scheduler records every answer that arrived and claims what is
   * due, then calls `flush()` before sending anything it claimed.
   */
  batch<T>(fn: () => T): T {
    return this.tx.batch(fn);
  }

  /**
   * Claims up to `limit` attempts due: by `now` for stores on the wall clock, by their own time for the
   * stores in `clocks` (store id -> that store's time now). The lease runs to `leaseUntil`, wall clock.
   */
  claimDue(now: number, limit: number, owner: string, leaseUntil: number, clocks?: ClockTimes): Claim[] {
    return limit > 0 ? this.tx.claim(now, limit, owner, leaseUntil, clocks && clocks.size ? clocks : undefined) : [];
  }

  private claimTx(now: number, limit: number, owner: string, leaseUntil: number, clocks: ClockTimes | undefined): Claim[] {
    // Another connection can commit only between our transactions: one look at data_version is enough.
    this.checkVersion();
    if (this.sweepOrphans) {
      // Disabling or deleting a subscription cancels its scheduled attempts in the same transaction; this
      // is the backstop, run after any change to subscriptions (here or by another connection).
      this.s.cancelOrphans.run(now);
      this.sweepOrphans = false;
    }
    const rows = (
      (clocks
        ? this.s.claimDueClocked.all({ clocks: JSON.stringify(Object.fromEntries(clocks)), now, owner, lease_until: leaseUntil, latest: Math.max(now, ...clocks.values()), limit })
        : this.s.claimDue.all(now, owner, leaseUntil, now, limit)) as ClaimedValues[]
    ).map(claimedRow);
    rows.sort((a, b) => a.scheduled_at - b.scheduled_at || a.seq - b.seq);
    return rows.map((row) => {
      const sub = this.cachedSub(row.webhook_id)!;
      return { row, secret: sub.row.secret, customHeaders: sub.headers, payloadJson: this.payloadOf(row.event_id) };
    });
  }

  /**
   * Records the end of an attempt and decides what follows (seed 3.2): 2XX delivered; the disable status
   * disables the subscription and cancels its pending attempts; any other failure schedules the next
   * automatic attempt after the rule's delay, counted from the end of this one, until the sequence has had
   * `maxAttempts`. Returns undefined when `owner` no longer holds the attempt (its lease expired and it was
   * settled by someone else): the late result is dropped rather than recorded twice.
   */
  complete(claimed: AttemptRow, owner: string, result: AttemptResult, policy: CompletionPolicy, newDeliveryId: () => string): Completion | undefined {
    const status = result.responseStatus;
    // Delivered: one statement, atomic on its own (the hot path of every successful attempt).
    if (status !== null && policy.isSuccess(status)) {
      const row = this.finish(claimed, owner, result, 'delivered', null);
      return row && { row };
    }
    return this.tx.failure(claimed, owner, result, policy, newDeliveryId);
  }

  /**
   * `complete` for many answers at once: the delivered ones (the common case) are recorded by one
   * statement, the others one by one. Completions in the order of `answers`; undefined where `owner` no
   * longer held the attempt.
   */
  completeMany(
    answers: ReadonlyArray<{ row: AttemptRow; result: AttemptResult }>,
    owner: string,
    policy: CompletionPolicy,
    newDeliveryId: (result: AttemptResult) => string,
  ): Array<Completion | undefined> {
    const delivered: Array<[number, number, number | null, number, string | null, number]> = [];
    for (const { row, result } of answers) {
      if (result.responseStatus === null || !policy.isSuccess(result.responseStatus)) continue;
      delivered.push([row.seq, result.completedAt, durationOf(row, result), result.responseStatus, result.excerpt, result.truncated ? 1 : 0]);
    }
    const recorded = new Set(delivered.length ? (this.s.deliveredMany.all(JSON.stringify(delivered), owner) as number[]) : []);
    return answers.map(({ row, result }) => {
      const status = result.responseStatus;
      if (status === null || !policy.isSuccess(status)) return this.tx.failure(row, owner, result, policy, () => newDeliveryId(result));
      if (!recorded.has(row.seq)) return undefined;
      return {
        row: {
          ...row,
          status: 'succeeded',
          outcome: 'delivered',
          completed_at: result.completedAt,
          duration_ms: durationOf(row, result),
          response_status: status,
          error_class: null,
          response_body_excerpt: result.excerpt,
          response_body_truncated: result.truncated ? 1 : 0,
          next_retry_at: null,
          claimed_by: null,
          lease_until: null,
        },
      };
    });
  }

  private failureTx(claimed: AttemptRow, owner: string, result: AttemptResult, policy: CompletionPolicy, newDeliveryId: () => string): Completion | undefined {
    const status = result.responseStatus;
    if (status !== null && policy.isDisable(status)) {
      const row = this.finish(claimed, owner, result, 'webhook_disabled', null);
      if (!row) return undefined;
      this.invalidateSubs();
      const disabled = this.s.disable.run(result.completedAt, result.completedAt, claimed.webhook_id).changes === 1;
      if (disabled) this.s.cancelOfSub.run(result.completedAt, claimed.webhook_id);
      return { row, disabledWebhook: disabled ? claimed.webhook_id : undefined };
    }
    const sub = this.s.subStatus.get(claimed.webhook_id) as { status: SubscriptionStatus; url: string } | undefined;
    const retry = claimed.auto_retry === 1 && claimed.sequence_attempt < policy.maxAttempts && sub?.status === 'enabled';
    const nextAt = retry ? result.completedAt + policy.retryDelaysMs[claimed.sequence_attempt - 1] : null;
    // Finish this row before inserting the next: the unique index allows one active attempt per event.
    const row = this.finish(claimed, owner, result, retry ? 'retry_scheduled' : 'failed', nextAt);
    if (!row) return undefined;
    if (nextAt === null) return { row };
    const event = this.event(row.store_id, row.event_id, 0)!;
    const next = this.insertAttempt(
      event,
      { deliveryId: newDeliveryId(), webhookId: row.webhook_id, trigger: 'retry', url: sub!.url, scheduledAt: nextAt, autoRetry: true },
      row.attempt + 1,
      row.sequence_attempt + 1,
      result.completedAt,
    );
    return { row, next };
  }

  /** Writes the end of an attempt if `owner` still holds it; returns the finished row, or undefined. */
  private finish(claimed: AttemptRow, owner: string, result: AttemptResult, outcome: AttemptOutcome, nextAt: number | null): AttemptRow | undefined {
    const status = result.responseStatus;
    const values = {
      status: (outcome === 'delivered' ? 'succeeded' : 'failed') as AttemptStatus,
      outcome,
      completed_at: result.completedAt,
      duration_ms: durationOf(claimed, result),
      response_status: status,
      error_class: outcome === 'delivered' ? null : result.errorClass ?? (status !== null && status >= 300 && status <= 399 ? 'redirect' : 'http_status'),
      response_body_excerpt: result.excerpt,
      response_body_truncated: result.truncated ? 1 : 0,
      next_retry_at: nextAt,
    } as const;
    const changed = this.s.finish.run({ ...values, seq: claimed.seq, owner }).changes;
    if (changed !== 1) return undefined;
    return { ...claimed, ...values, claimed_by: null, lease_until: null };
  }

  /** In-flight attempts whose lease ran out: their sender died (crash, kill) before recording an answer. */
  expiredLeases(now: number): AttemptRow[] {
    return this.s.expired.all(now) as AttemptRow[];
  }

  /** Moves the lease of an attempt `owner` still holds to `leaseUntil`; false when it holds it no more. */
  renewLease(seq: number, owner: string, leaseUntil: number): boolean {
    return this.s.renewLease.run(leaseUntil, seq, owner).changes > 0;
  }

  /**
   * The earliest wall-clock time something needs doing: a scheduled attempt falls due or a lease runs out.
   * `toWall` maps a clocked store's time to the wall clock (undefined: a frozen clock that has not reached
   * it, so never by itself); stores not in it are on the wall clock.
   */
  nextWakeAt(clocked?: ReadonlyMap<string, (storeTime: number) => number | undefined>): number | undefined {
    const times: number[] = [];
    const lease = (this.s.nextLease.get() as { t: number | null }).t;
    if (lease !== null) times.push(lease);
    if (!clocked || clocked.size === 0) {
      const due = (this.s.nextDue.get() as { t: number | null }).t;
      if (due !== null) times.push(due);
    } else {
      const keys = JSON.stringify(Object.fromEntries([...clocked.keys()].map((k) => [k, 1])));
      const due = (this.s.nextDueExcept.get(keys) as { t: number | null }).t;
      if (due !== null) times.push(due);
      for (const { store_id, t } of this.s.nextDueOfClocked.all(keys) as Array<{ store_id: string; t: number }>) {
        const wall = clocked.get(store_id)?.(t);
        if (wall !== undefined) times.push(wall);
      }
    }
    return times.length ? Math.min(...times) : undefined;
  }

  /** The store's earliest scheduled attempt of an enabled subscription (store time), if any. */
  nextDueOf(storeId: string): number | undefined {
    this.flush();
    return (this.s.storeNextDue.get(storeId) as { t: number | null }).t ?? undefined;
  }

  /** How many attempts of the store are on the wire now. */
  inFlightOf(storeId: string): number {
    return (this.s.storeInFlight.get(storeId) as { n: number }).n;
  }

  listDeliveries(storeId: string, filter: DeliveryFilter, since: number, offset: number, limit: number): { rows: AttemptRow[]; total: number } {
    this.flush(); // a read that must see the events raised in this turn
    const where = ['store_id = ?', 'created_at >= ?'];
    const params: unknown[] = [storeId, since];
    if (filter.webhookId) (where.push('webhook_id = ?'), params.push(filter.webhookId));
    if (filter.event) (where.push('event = ?'), params.push(filter.event));
    if (filter.eventId) (where.push('event_id = ?'), params.push(filter.eventId));
    if (filter.status) (where.push('status = ?'), params.push(filter.status));
    const clause = where.join(' AND ');
    const total = (this.db.prepare(`SELECT count(*) AS n FROM attempts WHERE ${clause}`).get(...params) as { n: number }).n;
    const rows = this.db.prepare(`SELECT * FROM attempts WHERE ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(...params, limit, offset) as AttemptRow[];
    return { rows, total };
  }

  // ---- retention (./retention.ts drives these in bounded steps) -------------------------------------

  /** The first store id after `after` ('' = the first) that has events, or undefined. */
  nextStoreWithEvents(after: string): string | undefined {
    return (this.s.nextStore.get(after) as string | null) ?? undefined;
  }

  /**
   * One bounded step of the retention in one store: deletes up to `limit` of its events (with their
   * attempts) that are older than `maxAgeMs` on the store's clock (`storeNow`), or beyond the newest
   * `maxEvents` received ones, or beyond the newest `maxUnreceived` ones no subscription received. An event
   * with an attempt scheduled or in flight is never deleted. One IMMEDIATE transaction; returns how many
   * events were deleted (less than `limit`: the store is done for now).
   */
  pruneStep(storeId: string, storeNow: number, retention: Retention, limit: number): number {
    return this.db
      .transaction(() => {
        const ids: string[] = [];
        let newest = -Infinity;
        for (const received of [1, 0]) {
          if (ids.length >= limit) break;
          const keep = received ? retention.maxEvents : retention.maxUnreceived;
          // Everything strictly before (t, r) goes: the age bound is (oldest kept time, -1); the count bound
          // the row after the (N+1)th newest. The later of the two wins.
          let t = storeNow - retention.maxAgeMs;
          let r = -1;
          const cut = this.s.countCut.get(storeId, received, keep) as { t: number; r: number } | undefined;
          if (cut && (cut.t > t || (cut.t === t && cut.r + 1 > r))) (t = cut.t), (r = cut.r + 1);
          const rows = this.s.prunable.all({ store: storeId, received, t, r, limit: limit - ids.length }) as Array<{ event_id: string; created_at: number }>;
          for (const row of rows) {
            ids.push(row.event_id);
            newest = Math.max(newest, row.created_at);
          }
        }
        if (!ids.length) return 0;
        const list = JSON.stringify(ids);
        const lastAttempt = (this.s.lastAttemptOf.get(list) as number | null) ?? newest;
        this.s.deleteAttemptsOf.run(list);
        this.s.deleteEvents.run(list);
        this.s.notePruned.run(storeId, newest, Math.max(newest, lastAttempt), ids.length);
        for (const id of ids) this.payloads.delete(id);
        return ids.length;
      })
      .immediate();
  }

  /**
   * What the retention pruned in a store: the creation time (store clock) of the newest pruned event and of
   * the newest pruned attempt, and how many events in all.
   */
  pruned(storeId: string): { before: number; logBefore: number; events: number } | undefined {
    return this.s.prunedOf.get(storeId) as { before: number; logBefore: number; events: number } | undefined;
  }

  /**
   * Gives up to `pages` free pages back to the file system (PRAGMA incremental_vacuum); returns how many
   * free pages are left. Bounded, so it never blocks the event loop for long.
   */
  vacuumStep(pages: number): number {
    this.db.exec(`PRAGMA incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
    return this.freePages();
  }

  /** Pages of the file that hold nothing (SQLite reuses them for new rows before growing the file). */
  freePages(): number {
    return this.s.freePages.get() as number;
  }

  /** Copies the -wal file into the database file and cuts it to zero bytes (after a prune pass). */
  checkpoint(): void {
    if (this.wal && !this.db.inTransaction) this.db.pragma('wal_checkpoint(TRUNCATE)');
  }
}

/** How long and how much history the simulator keeps (./retention.ts; the defaults there). */
export interface Retention {
  /** Events (and their attempts) older than this on their store's clock are pruned. */
  maxAgeMs: number;
  /** Per store: the newest this many events that went to at least one subscription are kept. */
  maxEvents: number;
  /** Per store: the newest this many events that no subscription received are kept (for replays). */
  maxUnreceived: number;
}

function durationOf(claimed: AttemptRow, result: AttemptResult): number | null {
  return claimed.sent_at === null ? null : Math.max(0, Math.round(result.completedAt - claimed.sent_at));
}

const ATTEMPT_COLUMNS = [
  'delivery_id',
  'store_id',
  'webhook_id',
  'event_id',
  'event',
  'is_test',
  'attempt',
  'sequence_attempt',
  'auto_retry',
  'trigger',
  'url',
  'scheduled_at',
  'created_at',
] as const;

type AttemptValues = Pick<AttemptRow, (typeof ATTEMPT_COLUMNS)[number]>;

/** Events raised and not yet written (group commit), each with its first attempts. */
type Outbox = Array<{ event: EventRecord; attempts: AttemptValues[] }>;

function attemptValues(event: EventRecord, a: NewAttempt, attempt: number, sequenceAttempt: number, now: number): AttemptValues {
  return {
    delivery_id: a.deliveryId,
    store_id: event.storeId,
    webhook_id: a.webhookId,
    event_id: event.eventId,
    event: event.event,
    is_test: event.isTest ? 1 : 0,
    attempt,
    sequence_attempt: sequenceAttempt,
    auto_retry: a.autoRetry ? 1 : 0,
    trigger: a.trigger,
    url: a.url,
    scheduled_at: a.scheduledAt,
    created_at: now,
  };
}

/**
 * The columns a claim reads back, in this order (as arrays: `prepareRaw`). A `scheduled` row has no outcome,
 * answer or retry time yet (only `finish` sets them), so the rest of the row is known without reading it.
 */
const CLAIMED_COLUMNS =
  'seq, delivery_id, store_id, webhook_id, event_id, event, is_test, attempt, sequence_attempt, auto_retry, trigger, url, scheduled_at, sent_at, claimed_by, lease_until, created_at';
type ClaimedValues = [number, string, string, string, string, string, number, number, number, number, AttemptTrigger, string, number, number, string, number, number];

function claimedRow(v: ClaimedValues): AttemptRow {
  return {
    seq: v[0],
    delivery_id: v[1],
    store_id: v[2],
    webhook_id: v[3],
    event_id: v[4],
    event: v[5],
    is_test: v[6],
    attempt: v[7],
    sequence_attempt: v[8],
    auto_retry: v[9],
    trigger: v[10],
    url: v[11],
    status: 'in_flight',
    outcome: null,
    scheduled_at: v[12],
    sent_at: v[13],
    completed_at: null,
    duration_ms: null,
    response_status: null,
    error_class: null,
    response_body_excerpt: null,
    response_body_truncated: 0,
    next_retry_at: null,
    claimed_by: v[14],
    lease_until: v[15],
    created_at: v[16],
  };
}

/** A new attempt row as stored, built here rather than read back (RETURNING * costs more than the insert). */
function storedRow(seq: number, values: AttemptValues): AttemptRow {
  return {
    seq,
    ...values,
    status: 'scheduled',
    outcome: null,
    sent_at: null,
    completed_at: null,
    duration_ms: null,
    response_status: null,
    error_class: null,
    response_body_excerpt: null,
    response_body_truncated: 0,
    next_retry_at: null,
    claimed_by: null,
    lease_until: null,
  };
}

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    storeId: row.store_id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    customHeaders: JSON.parse(row.custom_headers) as Record<string, string>,
    marketplaceId: row.marketplace_id,
    description: row.description,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    secretRotatedAt: row.secret_rotated_at,
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
  };
}
