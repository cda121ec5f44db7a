// createSimulator: the webhook simulator in one object. Its `extension` plugs the live Admin webhook API
// and the /__simulator routes into the workbench's HTTP pipeline (createWorkbench); `trigger` raises events
// in process (tests, the certifier, the benchmark); `close` stops sending and closes the store, leaving
// pending attempts on disk for the next run.
import { basePathTemplate } from 'storefront-contract/contract';
import { randomUUID } from 'node:crypto';
import type { WorkbenchExtension } from '../http/extension.js';
import { adminExtension } from './admin-operations.js';
import { createSender, envelopeBytes, type Sender } from './deliver.js';
import { createThreadedSender } from './send-thread.js';
import { toWebhookDelivery, type WebhookDeliveryView } from './present.js';
import { deliveryRules, timing, type Timing } from './rules.js';
import { Scheduler } from './scheduler.js';
import { WebhookService, type TriggerContent } from './service.js';
import { DEFAULT_RETENTION, describeRetention, Pruner, type Retention } from './retention.js';
import { createSimulatorRoutes, OUTSIDE_CONTRACT } from './simulator-routes.js';
import { SimulatorStore, type Completion } from './store.js';
import { Clocks } from '../clock/clocks.js';
import { stampSchema, type StoreDatabase } from '../store/database.js';
import { setting } from '../store/settings.js';
import { CLOCKS_SETTING, openDataDir } from '../upgrade/index.js';
import type { DueWork } from '../clock/advance.js';

export { OUTSIDE_CONTRACT, type TriggerContent, type WebhookDeliveryView };

export interface SimulatorOptions {
  /** Folder of the workbench's database (`workbench.sqlite`, ../store/), opened here. Default: in memory (lost when closed). */
  dataDir?: string;
  /** The workbench's one database, opened and closed by its owner (createWorkbench); instead of `dataDir`. */
  database?: StoreDatabase;
  /** Multiplies every retry delay and the time-out. Default 1 (the contract's real times). */
  timeScale?: number;
  /** The attempt time-out in ms, instead of the scaled contract value (tests on loaded machines). */
  timeoutMs?: number;
  /** Refuse loopback, private, link-local and metadata addresses (after DNS resolution). Default false. */
  denyPrivate?: boolean;
  /** Wall clock in ms since the epoch. Default Date.now. Ignored when `clocks` is given. */
  now?: () => number;
  /** Every store's clock (shared with the sandbox); default: one of its own on `now`, kept in `dataDir`. */
  clocks?: Clocks;
  /** Most attempts in flight at once. Default 64. */
  concurrency?: number;
  /**
   * Where the HTTP exchanges of attempts run: 'thread' (default) a thread of their own (send-thread.ts),
   * so sending does not compete with triggering, claiming and recording; 'main' this thread.
   */
  sendOn?: 'thread' | 'main';
  /** See AdminAuthOptions: unset = any non-empty bearer token is accepted. */
  adminTokens?: readonly string[];
  /** One line per finished attempt (no secrets, no header values). Default: silent. */
  log?: (line: string) => void;
  /** Routes of other parts under /__simulator (the sandbox's back office), for GET /__simulator. */
  moreRoutes?: Record<string, string>;
  /** What history is kept (./retention.ts): default 30 days, 10,000 received and 1,000 unreceived events per store. */
  retention?: Partial<Retention>;
}

export interface Simulator {
  /** The live Admin webhook API and the /__simulator routes, for the workbench's pipeline. */
  extension: WorkbenchExtension;
  service: WebhookService;
  timing: Timing;
  /** Every store's clock (shared with the sandbox when the workbench composes them). */
  clocks: Clocks;
  /** What a clock advance needs: each store's due attempts, played in order (../clock/advance.ts). */
  dueWork: DueWork;
  /**
   * Raises an event in a store; throws with the 400 message when the event or properties are invalid. The
   * event is committed with the other writes of this turn of the event loop (group commit): `settled()`
   * resolves once it is on disk; nothing of it is sent before.
   */
  trigger(storeId: string, event: string, properties?: Record<string, unknown>, unset?: readonly string[]): TriggerContent;
  /** Resolves once every write so far is committed (undefined: nothing pending). HTTP answers wait for it. */
  settled(): Promise<void> | undefined;
  /**
   * The transactional outbox (store.ts `writeWith`): `fn` (a write of another part on the same database, and
   * the events it raises through `service.trigger`) commits in one transaction, or not at all.
   */
  writeWith<T>(fn: () => T): T;
  /**
   * Resolves once the sender can send at once (its sending thread started): what a caller timing the first
   * delivery awaits first, so the thread's start (seconds on a loaded machine) is not taken for latency.
   */
  ready(): Promise<void>;
  /** Every finished attempt (after it is recorded), for tests and tools. Returns an unsubscribe function. */
  onAttempt(listener: (delivery: WebhookDeliveryView) => void): () => void;
  /** Lines for a startup banner: where things are and how admin auth behaves. */
  describe(): string[];
  /** The retention in force. */
  retention: Retention;
  /** Runs a pruning pass now (it also runs by itself); resolves when it is done. */
  prune(): Promise<void>;
  /**
   * What an attempt was sent with, for the console's signature verdict (workbench/console): the exact
   * body (rebuilt from the stored event, as the sender built it), the signature header sent (kept for the
   * last SENT_SIGNATURES attempts of this process) and the subscription's current secret. In process
   * only: nothing here is served as is.
   */
  sentAttempt(storeId: string, deliveryId: string): SentAttempt | undefined;
  close(): Promise<void>;
}

export interface SentAttempt {
  body: Buffer;
  /** The X-SVC-Signature header the attempt carried; undefined when sent by another run (or too long ago). */
  signature?: string;
  /** The subscription's secret now; undefined when it was deleted. */
  secret?: string;
}

/** How many attempts' signature headers are kept for sentAttempt (about 100 bytes each). */
const SENT_SIGNATURES = 10_000;

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  // Alone on a data directory: the workbench's database opened here (0.2.x files taken in first), closed with the simulator.
  const owned = !options.database && options.dataDir ? openDataDir(options.dataDir) : undefined;
  const database = options.database ?? owned;
  const store = database ? SimulatorStore.on(database.db, database.location) : SimulatorStore.open();
  const clocks = options.clocks ?? Clocks.open({ kept: database?.persistent ? setting(database.db, database.location, CLOCKS_SETTING) : undefined, wall: options.now });
  if (owned) stampSchema(owned.db);
  const t = timing(options.timeScale ?? 1, options.timeoutMs);
  const denyPrivate = options.denyPrivate ?? false;
  const concurrency = options.concurrency ?? 64;
  const retention: Retention = { ...DEFAULT_RETENTION, ...options.retention };
  // Retention by each store's own time (a store whose clock is set back keeps its history); in bounded steps.
  const pruner = new Pruner(store, {
    retention,
    now: (storeId) => clocks.now(storeId),
    onError: (e) => process.stderr.write(`webhooks: pruning stopped for now (retried on the next pass): ${e.message}\n`),
  });
  const senderOptions = { timeoutMs: t.timeoutMs, denyPrivate, connections: concurrency };
  // The signature header of each attempt sent, by delivery id, for sentAttempt (oldest dropped first).
  const signatures = new Map<string, string>();
  const sender = keepSignatures(options.sendOn === 'main' ? createSender(senderOptions) : createThreadedSender(senderOptions), signatures);
  const listeners = new Set<(d: WebhookDeliveryView) => void>();

  // Waiters for the next recorded attempt (a clock advance steps from one to the next).
  let attemptWaiters: Array<() => void> = [];
  // Advances counting the attempts of their store (../clock/advance.ts): a few at a time, one per advance.
  const counters = new Set<{ storeId: string; after: number; count: number }>();
  const onCompleted = (c: Completion) => {
    for (const counter of counters) if (counter.storeId === c.row.store_id && c.row.scheduled_at > counter.after) counter.count++;
    if (attemptWaiters.length) {
      const waiting = attemptWaiters;
      attemptWaiters = [];
      for (const w of waiting) w();
    }
    if (!options.log && listeners.size === 0) return;
    const view = toWebhookDelivery(c.row);
    if (options.log) options.log(describeAttempt(view, c));
    for (const l of listeners) l(view);
  };
  const onError = (e: Error) => process.stderr.write(`webhooks: could not record attempts (they will be retried after their lease): ${e.message}\n`);
  store.onFlushError = (e) => process.stderr.write(`webhooks: could not commit the writes of one turn (events raised then are lost, answers are retried after their lease): ${e.message}\n`);
  const scheduler = new Scheduler({ store, sender, timing: t, concurrency, clocks, owner: randomUUID(), onCompleted, onError });
  const service = new WebhookService(store, { now: (storeId) => clocks.now(storeId), denyPrivate, wake: () => scheduler.kick(), retention });
  // A store's clock moved: what is due in it now is claimed, and the timer is re-armed for the rest; what
  // fell out of the retention by that store's time is pruned.
  const unwatch = clocks.onChange(() => {
    scheduler.kick();
    void pruner.schedule();
  });
  // Raised events are written by the scheduler's next pump, with the claims of their first attempts.
  store.onEventsQueued = () => {
    scheduler.kick();
    pruner.noteRaised();
  };

  const adminAuth = options.adminTokens
    ? `Admin API: only the ${options.adminTokens.length} configured bearer token(s) are accepted`
    : 'Admin API: any non-empty "Authorization: Bearer <token>" is accepted (local simulator, no admin users)';
  const settled = () => store.settled();
  const extension: WorkbenchExtension = {
    ...adminExtension(service, { adminTokens: options.adminTokens }),
    controlRoutes: createSimulatorRoutes(service, { timeScale: t.timeScale, timeoutMs: t.timeoutMs, denyPrivate, store: store.location, adminAuth, moreRoutes: options.moreRoutes }),
    settled,
  };

  // Attempts left due by a previous run (or whose sender died) are picked up at once; history beyond the
  // retention is pruned, in steps between them.
  scheduler.kick();
  void pruner.schedule();

  let closing: Promise<void> | undefined;
  const dueWork: DueWork = {
    nextDueOf: (storeId) => store.nextDueOf(storeId),
    inFlightOf: (storeId) => store.inFlightOf(storeId),
    kick: () => scheduler.kick(),
    nextAttempt: (ms) =>
      new Promise<void>((resolve) => {
        const waiter = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          attemptWaiters = attemptWaiters.filter((w) => w !== waiter);
          resolve();
        }, ms);
        attemptWaiters.push(waiter);
      }),
    countAttempts: (storeId, after) => {
      const counter = { storeId, after, count: 0 };
      counters.add(counter);
      return {
        get count() {
          return counter.count;
        },
        stop: () => void counters.delete(counter),
      };
    },
  };

  return {
    extension,
    service,
    timing: t,
    clocks,
    dueWork,
    trigger(storeId, event, properties, unset) {
      const { reply, content } = service.trigger(storeId, { event, properties, unset });
      if (!content) throw new Error(reply.error?.message ?? 'the event was not raised');
      return content;
    },
    settled,
    writeWith: (fn) => store.writeWith(fn),
    ready: async () => {
      await sender.warmUp?.();
    },
    retention,
    prune: () => pruner.schedule(),
    onAttempt(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    describe() {
      const seconds = (ms: number) => (ms >= 1000 ? `${+(ms / 1000).toFixed(3)} s` : `${+ms.toFixed(1)} ms`);
      return [
        `webhooks    live Admin webhook API at ${basePathTemplate.admin}/webhooks (simulator; ${store.location === ':memory:' ? 'in memory, lost on exit: --data-dir to keep it' : `data ${store.location}`})`,
        `            ${adminAuth}`,
        `            retries after ${t.retryDelaysMs.map(seconds).join(', ')}; time-out ${seconds(t.timeoutMs)}${t.timeScale === 1 ? '' : ` (time scale ${t.timeScale})`}; ${denyPrivate ? 'private and loopback addresses refused' : 'loopback receivers allowed'}`,
        `            keeps ${describeRetention(retention)} (--webhook-retention)`,
        `            raise events: POST /__simulator/stores/{store_id}/events or storefront-contract webhooks trigger <event> (outside the contract)`,
      ];
    },
    sentAttempt(storeId, deliveryId) {
      const row = store.attempt(deliveryId);
      if (!row || row.store_id !== storeId || row.sent_at === null) return undefined;
      const event = store.event(storeId, row.event_id, 0);
      if (!event) return undefined;
      const body = envelopeBytes({ event: row.event, eventId: row.event_id, deliveryId: row.delivery_id, sentAt: row.sent_at, isTest: row.is_test === 1, payloadJson: event.payloadJson });
      return { body, signature: signatures.get(deliveryId), secret: store.secretOf(storeId, row.webhook_id) };
    },
    close() {
      closing ??= (async () => {
        // Attempts in flight get a moment to answer; any still open are aborted and retried next run.
        unwatch();
        await pruner.close();
        await scheduler.close(Math.min(t.timeoutMs, 1000));
        await sender.close().catch(() => undefined);
        store.close();
        owned?.close();
      })();
      return closing;
    },
  };
}

/** The sender, noting the signature header of every attempt it sends (bounded: the oldest go first). */
function keepSignatures(sender: Sender, signatures: Map<string, string>): Sender {
  const { deliveryId, signature } = deliveryRules.headers;
  return {
    isReady: sender.isReady && (() => sender.isReady!()),
    warmUp: sender.warmUp && (() => sender.warmUp!()),
    abortAll: () => sender.abortAll(),
    close: () => sender.close(),
    send(attempt) {
      const id = attempt.headers[deliveryId];
      if (id) {
        signatures.set(id, attempt.headers[signature]);
        if (signatures.size > SENT_SIGNATURES) signatures.delete(signatures.keys().next().value!);
      }
      return sender.send(attempt);
    },
  };
}

function describeAttempt(d: WebhookDeliveryView, c: Completion): string {
  let target = d.url;
  try {
    // The query string may carry a credential of the receiver: log origin and path only.
    const u = new URL(d.url);
    target = `${u.origin}${u.pathname}`;
  } catch {
    /* keep as is */
  }
  const answer = d.response_status !== null ? String(d.response_status) : d.error_class ?? '-';
  const next = c.next ? `, retry at ${new Date(c.next.scheduled_at).toISOString()}` : '';
  const disabled = c.disabledWebhook ? `, webhook ${c.disabledWebhook} disabled (${deliveryRules.disableStatus})` : '';
  return `webhooks: ${d.event} ${d.event_id} -> ${d.webhook_id} ${target} attempt ${d.attempt}: ${answer} ${d.outcome}${next}${disabled}`;
}

/** Reads `--time-scale` / WEBHOOK_TIME_SCALE: a positive number; undefined when neither is given. */
export function parseTimeScale(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!(Number.isFinite(n) && n > 0)) throw new RangeError(`time scale must be a positive number (1 = real time, 0.01 = 100x faster), got "${raw}"`);
  return n;
}

