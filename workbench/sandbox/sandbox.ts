// The sandbox's state: one world per store id, built on first use from the seed, the fixture files and
// the store's world writes (../store/world-log.ts); the identities issued by createAnonymousUser; and the
// one write path, shared by the storefront operations and the back office: a write and the events it
// raises commit in one transaction of the workbench's store (`commit`: a transactional outbox), then the
// answer is sent.
// Memory is bounded: at most `maxWorlds` worlds are held (least recently used evicted, written to or
// not); an evicted world is rebuilt from seed, fixtures and the store's writes when next used (the
// database with --data-dir, the in-memory log without), so no write is lost by eviction.
import { MockHttpError } from '../http/errors.js';
import { AssetUrls, DEFAULT_ASSET_ORIGIN, rebaseAssetUrls } from './asset-urls.js';
import { checkReferences, loadFixtures, type Sources } from './fixtures.js';
import { Identities } from './identities.js';
import { ENTRY_VERSION, Fold, withInventory, type Entry, type Put } from './journal.js';
import { isSandboxApiKey, sandboxApiKey, type ApiKeyMode } from './keys.js';
import { loadTemplates } from './templates.js';
import { generateWorld } from './seed.js';
import type { EventActor, EventSink, RaisedEvent, RaiseSpec } from './events.js';
import type { Identity, WorldData } from './types.js';
import type { WebhookEventName } from 'storefront-contract';
import { World } from './world.js';
import { Clocks, dayOf } from '../clock/clocks.js';
import { MemoryWorldLog, type WorldLog } from '../store/world-log.js';
import { storeFailureCode } from '../store/failure.js';
import { crashPoint } from '../store/crash-points.js';

export interface SandboxOptions {
  /** `--seed`: the same seed gives the same world on every run. Default 1. */
  seed?: string | number;
  /**
   * Where writes are kept and the transaction a write and its events commit in: the workbench's one
   * store (createWorkbench opens it, on `dataDir` or in memory, and shares it with the simulator).
   * Default: in memory, each write alone.
   */
  state?: SandboxState;
  /** `--data-dir`: createWorkbench keeps every store's state in `<dir>/workbench.sqlite` across restarts. Default: in memory. */
  dataDir?: string;
  /** `--data`: fixture files replacing seeded resources (fixtures.ts). */
  fixturesDir?: string;
  /** `--lenient-auth`: accept any well-formed bearer token, not only the ones the sandbox issued (and any well-formed API key, unless `apiKeyMode` says otherwise). */
  lenientAuth?: boolean;
  /**
   * Which X-Api-Key values open a store (keys.ts): `per-store` (default) only the store's own sandbox key
   * (`sandboxApiKey(storeId, { seed })`), `any` any well-formed key (`--any-api-key`; the default with
   * `lenientAuth`), `fixed` the workbench's `--api-key` for every store (set by createWorkbench).
   */
  apiKeyMode?: ApiKeyMode;
  /** `--ownership`: `open` (default) lets any token of the store read any customer's cards, orders and carts; `strict` only the customer it is bound to (register SF-036). */
  ownership?: Ownership;
  /** Products in a seeded catalog. Default 120. */
  catalogSize?: number;
  /**
   * How webhooks are raised (the simulator's trigger), inside the write's transaction; none when unset. A
   * raise that cannot be built throws, and the write fails with it.
   */
  events?: EventSink;
  /** Resolves once the events raised so far are durable (the simulator's group commit); awaited before answering. */
  eventsSettled?: () => Promise<void> | undefined;
  /** Every store's clock (shared with the simulator by createWorkbench); default: the wall clock for all. */
  clocks?: Clocks;
  /**
   * The day (ms) the seeded world is dated from: its carts expire in the days after it, its orders were
   * placed in the months before. Default: the day the sandbox starts on each store's clock; a reset
   * re-dates the store's world from its clock's day then. Fixture files keep their own dates.
   */
  anchor?: number;
  /** `--token-lifetime`: seconds an issued access token is accepted, on its store's clock (register SF-039). Default 86400. */
  tokenLifetimeSeconds?: number;
  /** Notes at start-up (journal repairs). Default: stderr. */
  log?: (line: string) => void;
  /**
   * `--max-worlds`: stores whose world is held in memory (about 1.1-1.6 MB each with the default
   * catalog); past it the least recently used world is dropped and rebuilt from seed plus journal when
   * next used (about 20 ms). Default 64.
   */
  maxWorlds?: number;
  /** Each world's answer cache, in bytes (default `ANSWER_CACHE_BYTES`, 4 MB; 0: every answer is built, as the benchmarks' uncached side). */
  answerCacheBytes?: number;
}

/** The sandbox's side of the workbench's store. */
export interface SandboxState {
  log: WorldLog;
  /** Runs `fn` (world writes and the events they raise) in one transaction: all of it is kept, or none. */
  writeWith<T>(fn: () => T): T;
}

/** A store's writes are folded into its current changes every this many (so a world is rebuilt from few entries). */
export const FOLD_EVERY = 256;

export type Ownership = 'open' | 'strict';

export const DEFAULT_MAX_WORLDS = 64;
/** Store ids remembered as used (a string each), so that their images are served after their world is evicted. */
const SEEN_STORES = 100_000;
/** An access token's lifetime by default: one day of its store's clock (register SF-039). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 86_400;
/** Seconds a client is asked to wait after a write the store could not keep. */
const RETRY_AFTER_SECONDS = 30;

export class Sandbox {
  readonly identities: Identities;
  readonly seed: string | number;
  readonly lenientAuth: boolean;
  readonly apiKeyMode: ApiKeyMode;
  readonly ownership: Ownership;
  /** The origin the world's images are served from (asset-urls.ts): the workbench's, once it listens. */
  private origin = DEFAULT_ASSET_ORIGIN;
  /** Held worlds, least recently used first (a Map keeps insertion order; a use moves a world to the end). */
  private readonly worlds = new Map<string, World>();
  /**
   * Stores whose world this process built, held or not (least recently built first, at most SEEN_STORES):
   * what `knownWorld` answers images from. An image request never adds to it.
   */
  private readonly seen = new Set<string>();
  readonly maxWorlds: number;
  readonly clocks: Clocks;
  readonly tokenLifetimeMs: number;
  /** The day worlds are dated from unless a reset re-dated one (Clocks.anchorOf). */
  private readonly anchor: number;
  private readonly unwatchClocks: () => void;

  readonly log: WorldLog;
  private readonly writeWith: SandboxState['writeWith'];

  private constructor(
    private readonly options: SandboxOptions,
    private readonly fixtures: { data: Partial<WorldData>; sources: Sources } | undefined,
  ) {
    this.log = options.state?.log ?? new MemoryWorldLog();
    this.writeWith = options.state?.writeWith ?? ((fn) => fn());
    this.identities = new Identities(this.log);
    this.seed = options.seed ?? 1;
    this.lenientAuth = options.lenientAuth === true;
    this.apiKeyMode = options.apiKeyMode ?? (this.lenientAuth ? 'any' : 'per-store');
    this.ownership = options.ownership ?? 'open';
    this.maxWorlds = Math.max(1, Math.floor(options.maxWorlds ?? DEFAULT_MAX_WORLDS));
    this.clocks = options.clocks ?? Clocks.open();
    this.tokenLifetimeMs = (options.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS) * 1000;
    this.anchor = dayOf(options.anchor ?? this.clocks.wallNow());
    // A store put back on the wall clock loses its reset's anchor (../clock/clocks.ts release): the world
    // held, dated from that anchor, is dropped, so what is answered is what a rebuild gives.
    this.unwatchClocks = this.clocks.onChange((storeId) => {
      const held = this.worlds.get(storeId);
      if (held && held.datedFrom !== this.datedFrom(storeId)) this.worlds.delete(storeId);
    });
  }

  static async create(options: SandboxOptions = {}): Promise<Sandbox> {
    await loadTemplates();
    // A data directory is opened by createWorkbench (../index.ts), which hands its store over as `state`.
    if (options.dataDir && !options.state) throw new Error('the sandbox keeps a data directory through the workbench\'s store: start it with createWorkbench({ sandbox: { dataDir } })');
    const fixtures = options.fixturesDir ? await loadFixtures(options.fixturesDir) : undefined;
    const sandbox = new Sandbox(options, fixtures);
    // Fixture files are checked now (not on the first request): a broken file stops the start.
    if (fixtures) sandbox.base('demo-store');
    return sandbox;
  }

  /** The store's clock (../clock/clocks.ts): the wall clock unless the back office set it. */
  now(storeId: string): number {
    return this.clocks.now(storeId);
  }

  nowIso(storeId: string): string {
    return new Date(this.now(storeId)).toISOString();
  }

  /** The store's sandbox API key (keys.ts): derived from the seed, the same on every run. */
  apiKey(storeId: string): string {
    return sandboxApiKey(storeId, { seed: this.seed });
  }

  /** Whether `key` opens the store in `per-store` mode. */
  isApiKeyOf(storeId: string, key: string): boolean {
    return isSandboxApiKey(storeId, key, this.seed);
  }

  /** Where images are served from: createWorkbench calls it once the port is known (held worlds are rebuilt). */
  setAssetOrigin(origin: string): void {
    if (origin === this.origin) return;
    this.origin = origin;
    this.worlds.clear();
  }

  get assetOrigin(): string {
    return this.origin;
  }

  get persistent(): boolean {
    return this.log.persistent;
  }

  /** The seeded world of a store, before any write. */
  private base(storeId: string): World {
    // Fixture records exported from a run on another port point at that run's images: moved here.
    const given = this.fixtures ? rebaseAssetUrls(structuredClone(this.fixtures.data), this.origin) : {};
    const assets = new AssetUrls(this.origin, storeId);
    const anchor = this.datedFrom(storeId);
    const data = generateWorld({ seed: this.seed, storeId, catalogSize: this.options.catalogSize, assets, anchor }, given);
    if (this.fixtures) checkReferences(data, this.fixtures.sources);
    const world = new World(storeId, data, assets, this.options.answerCacheBytes);
    world.datedFrom = anchor;
    return world;
  }

  /** The day the store's seeded world is dated from: its last reset's on a clock of its own, else the sandbox's. */
  private datedFrom(storeId: string): number {
    return this.clocks.anchorOf(storeId) ?? this.anchor;
  }

  /** The store's world: held, or built from seed and fixtures plus the store's writes (since its last reset). */
  world(storeId: string): World {
    let world = this.worlds.get(storeId);
    if (world) {
      this.worlds.delete(storeId);
      this.worlds.set(storeId, world);
      return world;
    }
    world = this.base(storeId);
    let n = 0;
    for (const line of this.log.entries(storeId)) {
      n++;
      try {
        const entry = JSON.parse(line) as Entry;
        if (entry.op === 'put' || entry.op === 'state') applyPuts(world, rebaseAssetUrls(entry.puts, this.origin));
        // Folded changes: the version the writes had taken the world to (one a put).
        if (entry.op === 'state') world.version = 1 + entry.changes;
      } catch (e) {
        // Written by this workbench, an entry always reads: this one was changed outside it (a hand edit).
        // Named, with the way out, instead of "see its log" on every request of the store.
        throw new MockHttpError(
          500,
          'internal_error',
          `The writes kept for store ${storeId} in ${this.log.location} cannot be read (its write ${n}: ${(e as Error).message.slice(0, 120)}): they were changed outside the workbench. POST /__simulator/stores/${storeId}/reset starts the store again from its seeded world (its writes are lost); the other stores are not affected.`,
        );
      }
      world.markTouched();
    }
    this.saw(storeId);
    this.hold(storeId, world);
    return world;
  }

  /**
   * The store's world if it has one on this workbench already: held, built by this process before (then
   * evicted), or written to (the store). Undefined for any other store id, without building anything:
   * what the image route answers from, so that an image of a store nobody used (a page can name any id)
   * costs a lookup, not a world (images.ts).
   */
  knownWorld(storeId: string): World | undefined {
    if (this.worlds.has(storeId) || this.seen.has(storeId) || this.log.has(storeId)) return this.world(storeId);
    return undefined;
  }

  private saw(storeId: string): void {
    this.seen.delete(storeId);
    this.seen.add(storeId);
    if (this.seen.size > SEEN_STORES) this.seen.delete(this.seen.values().next().value as string);
  }

  /** When an identity's access token stops being accepted (its store's time, ms): issued at + lifetime. */
  tokenExpiry(identity: Identity): number {
    return Date.parse(identity.user.created_at) + this.tokenLifetimeMs;
  }

  /** Worlds held now (for tests and the bench). */
  get heldWorlds(): number {
    return this.worlds.size;
  }

  private hold(storeId: string, world: World): void {
    this.worlds.delete(storeId);
    this.worlds.set(storeId, world);
    while (this.worlds.size > this.maxWorlds) this.worlds.delete(this.worlds.keys().next().value as string);
  }

  /**
   * The one write path: `puts` are applied to the store's world, then `events` (built from the world as it
   * is now) are raised, and the write and its events commit in one transaction of the store (a
   * transactional outbox: delivery reads the events from there). All of it is kept, or none: a write the
   * store could not keep (disk full, I/O error) is answered 503 with Retry-After, a raise that cannot be
   * built 500; either way the world held in memory is dropped and rebuilt from what was kept.
   */
  commit(storeId: string, puts: Put[], events?: (world: World) => readonly RaiseSpec[]): RaisedEvent[] {
    const world = this.world(storeId);
    applyPuts(world, puts);
    world.markTouched();
    try {
      const kept = this.writeWith(() => {
        const raised: RaisedEvent[] = [];
        for (const [event, properties, actor] of events?.(world) ?? []) {
          const done = this.raise(storeId, event, properties, actor);
          if (done) raised.push(done);
        }
        this.append(storeId, { v: ENTRY_VERSION, store: storeId, at: this.nowIso(storeId), op: 'put', puts });
        crashPoint('write-uncommitted');
        return raised;
      });
      crashPoint('write-committed');
      return kept;
    } catch (e) {
      this.worlds.delete(storeId);
      throw this.failure(e, 'write');
    }
  }

  /** Appends an entry of the store, folding its entries into one state every FOLD_EVERY (inside the write's transaction). */
  private append(storeId: string, entry: Entry): void {
    this.log.append(storeId, JSON.stringify(entry));
    if (this.log.count(storeId) < FOLD_EVERY) return;
    const fold = new Fold();
    for (const line of this.log.entries(storeId)) fold.add(JSON.parse(line) as Entry);
    this.log.replace(
      storeId,
      fold.entries(storeId, entry.at).map((e) => JSON.stringify(e)),
    );
  }

  /** What a failed write is answered with: 503 when the store could not keep it, the error itself otherwise. */
  private failure(e: unknown, what: string): unknown {
    if (e instanceof MockHttpError) return e;
    const code = storeFailureCode(e);
    const log = this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`));
    if (code) {
      log(`sandbox: the store could not keep a ${what} (${code}: ${(e as Error).message})`);
      return new MockHttpError(503, 'service_unavailable', `The sandbox could not keep this ${what} (${code}: disk full, or the data directory not writable?); nothing was changed, retry later.`, [], {
        'retry-after': String(RETRY_AFTER_SECONDS),
      });
    }
    if (e instanceof RaiseError) {
      log(`sandbox: ${e.message}`);
      return new MockHttpError(500, 'internal_error', `${e.message}; nothing was changed.`);
    }
    return e;
  }

  addIdentity(identity: Identity): void {
    try {
      this.identities.add(identity);
    } catch (e) {
      throw this.failure(e, 'sign-in');
    }
  }

  /**
   * Back to the seeded world (identities stay: the apps holding their tokens keep working until the tokens'
   * lifetime ends), dated from the store's clock today when it has a clock of its own (recorded with the
   * clock: Clocks.setAnchor), else from the sandbox's day like every store on the wall clock (nothing
   * recorded, so a store on the wall clock holds no clock entry, whenever it is reset).
   */
  reset(storeId: string): World {
    try {
      this.writeWith(() => this.log.clear(storeId));
    } catch (e) {
      throw this.failure(e, 'reset');
    }
    const day = this.clocks.onWallClock(storeId) ? this.anchor : dayOf(this.now(storeId));
    this.clocks.setAnchor(storeId, day === this.anchor ? undefined : day);
    const world = this.base(storeId);
    this.saw(storeId);
    world.markTouched();
    this.hold(storeId, world);
    return world;
  }

  /** Raises a webhook through the simulator, inside a write's transaction; a raise that cannot be built throws (RaiseError). */
  private raise(storeId: string, event: WebhookEventName, properties: Record<string, unknown>, actor: EventActor): RaisedEvent | undefined {
    if (!this.options.events) return undefined;
    try {
      return this.options.events(storeId, event, properties, actor);
    } catch (e) {
      throw new RaiseError(`could not raise ${event} in store ${storeId}: ${(e as Error).message}`);
    }
  }

  /** Resolves once the events raised so far are durable; undefined when nothing is pending. */
  settled(): Promise<void> | undefined {
    return this.options.eventsSettled?.();
  }

  close(): void {
    this.unwatchClocks();
  }
}

export type { RaiseSpec };

/** The simulator refused an event a write raised (a payload that does not match the event's schema: a bug here). */
export class RaiseError extends Error {}

export function applyPuts(world: World, puts: readonly Put[]): void {
  for (const put of puts) {
    if (put.kind === 'product') world.putProduct(put.record);
    else if (put.kind === 'customer') world.putCustomer(put.record);
    else if (put.kind === 'cart') world.putCart(put.record);
    else if (put.kind === 'cart-deleted') world.deleteCart(put.id);
    else if (put.kind === 'order') world.putOrder(put.record);
    else if (put.kind === 'stock') {
      const product = world.products.get(put.product_id);
      if (product) world.putProduct(withInventory(product, put.variant_id, put.inventory));
    }
  }
}
