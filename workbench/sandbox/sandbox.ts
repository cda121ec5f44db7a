// The sandbox's state: one world per store id, built on first use from the seed, the fixture files and
// the journal; the identities issued by createAnonymousUser; and the one write path (journal first, then
// the world, then the events), shared by the storefront operations and the back office.
// Memory is bounded: at most `maxWorlds` worlds are held (least recently used evicted, written to or
// not); an evicted world is rebuilt from seed, fixtures and the store's journal entries when next used
// (the journal file with --data-dir, the in-memory journal without), so no write is lost by eviction.
import { MockHttpError } from '../http/errors.js';
import { AssetUrls, DEFAULT_ASSET_ORIGIN, rebaseAssetUrls } from './asset-urls.js';
import { checkReferences, journalRecordCheck, loadFixtures, type Sources } from './fixtures.js';
import { Identities } from './identities.js';
import { ENTRY_VERSION, Journal, JournalWriteError, withInventory, type Entry, type Put } from './journal.js';
import { isSandboxApiKey, sandboxApiKey, type ApiKeyMode } from './keys.js';
import { loadTemplates } from './templates.js';
import { generateWorld } from './seed.js';
import type { EventActor, EventSink, RaisedEvent } from './events.js';
import type { Identity, WorldData } from './types.js';
import type { WebhookEventName } from 'storefront-contract';
import { World } from './world.js';
import { Clocks, dayOf } from '../clock/clocks.js';

export interface SandboxOptions {
  /** `--seed`: the same seed gives the same world on every run. Default 1. */
  seed?: string | number;
  /** `--data-dir`: keep every write in `<dir>/sandbox.jsonl` across restarts. Default: in memory. */
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
  /** How webhooks are raised (the simulator's trigger); none when unset. */
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
  /**
   * With `dataDir`: the tail of the journal is compacted into the snapshot once it holds this many
   * entries (`--compact-after`, default 100,000) or bytes (default 64 MiB), whichever first (journal.ts).
   */
  compactEntries?: number;
  compactBytes?: number;
}

export type Ownership = 'open' | 'strict';

export const DEFAULT_MAX_WORLDS = 64;
/** Store ids remembered as used (a string each), so that their images are served after their world is evicted. */
const SEEN_STORES = 100_000;
/** An access token's lifetime by default: one day of its store's clock (register SF-039). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 86_400;
/** Seconds a client is asked to wait after a write the journal could not keep. */
const RETRY_AFTER_SECONDS = 30;

export class Sandbox {
  readonly identities = new Identities();
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

  private constructor(
    private readonly options: SandboxOptions,
    readonly journal: Journal,
    private readonly fixtures: { data: Partial<WorldData>; sources: Sources } | undefined,
  ) {
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
    for (const identity of journal.identities.splice(0)) this.identities.add(identity);
  }

  static async create(options: SandboxOptions = {}): Promise<Sandbox> {
    await loadTemplates();
    const fixtures = options.fixturesDir ? await loadFixtures(options.fixturesDir) : undefined;
    // Journaled records are checked against the fixture schemas at start: a wrong one names file, line and field.
    const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`));
    const journal = options.dataDir
      ? Journal.open(options.dataDir, { check: await journalRecordCheck(), log, compactEntries: options.compactEntries, compactBytes: options.compactBytes })
      : Journal.inMemory();
    for (const note of journal.notes) log(note);
    const sandbox = new Sandbox(options, journal, fixtures);
    try {
      // Fixture files are checked now (not on the first request): a broken file stops the start.
      if (fixtures) sandbox.base('demo-store');
    } catch (e) {
      journal.close();
      throw e;
    }
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
    return this.journal.persistent;
  }

  /** The seeded world of a store, before any write. */
  private base(storeId: string): World {
    // Fixture records exported from a run on another port point at that run's images: moved here.
    const given = this.fixtures ? rebaseAssetUrls(structuredClone(this.fixtures.data), this.origin) : {};
    const assets = new AssetUrls(this.origin, storeId);
    const anchor = this.datedFrom(storeId);
    const data = generateWorld({ seed: this.seed, storeId, catalogSize: this.options.catalogSize, assets, anchor }, given);
    if (this.fixtures) checkReferences(data, this.fixtures.sources);
    const world = new World(storeId, data, assets);
    world.datedFrom = anchor;
    return world;
  }

  /** The day the store's seeded world is dated from: its last reset's on a clock of its own, else the sandbox's. */
  private datedFrom(storeId: string): number {
    return this.clocks.anchorOf(storeId) ?? this.anchor;
  }

  /** The store's world: held, or built from seed and fixtures plus the journal's writes for it (since its last reset). */
  world(storeId: string): World {
    let world = this.worlds.get(storeId);
    if (world) {
      this.worlds.delete(storeId);
      this.worlds.set(storeId, world);
      return world;
    }
    world = this.base(storeId);
    this.saw(storeId);
    for (const entry of this.journal.entries(storeId)) {
      if (entry.op === 'put' || entry.op === 'state') applyPuts(world, rebaseAssetUrls(entry.puts, this.origin));
      // Folded changes: the version the writes had taken the world to (one a put).
      if (entry.op === 'state') world.version = 1 + entry.changes;
      world.markTouched();
    }
    this.hold(storeId, world);
    return world;
  }

  /**
   * The store's world if it has one on this workbench already: held, built by this process before (then
   * evicted), or written to (the journal). Undefined for any other store id, without building anything:
   * what the image route answers from, so that an image of a store nobody used (a page can name any id)
   * costs a lookup, not a world (images.ts).
   */
  knownWorld(storeId: string): World | undefined {
    if (this.worlds.has(storeId) || this.seen.has(storeId) || this.journal.hasWrites(storeId)) return this.world(storeId);
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

  /** Journals an entry; a write the journal could not keep is answered 503 with Retry-After, the world untouched. */
  private append(entry: Entry): void {
    try {
      this.journal.append(entry);
    } catch (e) {
      if (!(e instanceof JournalWriteError)) throw e;
      (this.options.log ?? ((l) => process.stderr.write(`${l}\n`)))(`sandbox: ${e.message}`);
      const what = e.refusing
        ? 'The sandbox cannot keep writes any more (its journal could not be repaired after a failed write); restart the workbench.'
        : `The sandbox could not keep this write (${e.errno ?? 'write error'}: disk full or a file size limit?); nothing was changed, retry later.`;
      throw new MockHttpError(503, 'service_unavailable', what, [], { 'retry-after': String(RETRY_AFTER_SECONDS) });
    }
  }

  /** The one write path: journal (fsync'd with --data-dir), then the world. */
  commit(storeId: string, puts: Put[]): void {
    const world = this.world(storeId);
    this.append({ v: ENTRY_VERSION, store: storeId, at: this.nowIso(storeId), op: 'put', puts });
    applyPuts(world, puts);
    world.markTouched();
    this.compactIfDue();
  }

  /** Folds the journal's tail into its snapshot once it reached its thresholds (journal.ts); never fails a write. */
  private compactIfDue(): void {
    if (!this.journal.due) return;
    const done = this.journal.compact(this.identities.all());
    if (done && done.ms >= 1000) {
      (this.options.log ?? ((l) => process.stderr.write(`${l}\n`)))(`sandbox: compacted the journal in ${(done.ms / 1000).toFixed(1)} s (${done.stores} stores, ${(done.snapshotBytes / 1024 / 1024).toFixed(1)} MB snapshot)`);
    }
  }

  addIdentity(identity: Identity): void {
    this.append({ v: ENTRY_VERSION, store: identity.store_id, at: this.nowIso(identity.store_id), op: 'identity', identity });
    this.identities.add(identity);
    this.compactIfDue();
  }

  /**
   * Back to the seeded world (identities stay: the apps holding their tokens keep working until the tokens'
   * lifetime ends), dated from the store's clock today when it has a clock of its own (recorded with the
   * clock: Clocks.setAnchor), else from the sandbox's day like every store on the wall clock (nothing
   * recorded, so a store on the wall clock holds no clock entry, whenever it is reset).
   */
  reset(storeId: string): World {
    this.append({ v: ENTRY_VERSION, store: storeId, at: this.nowIso(storeId), op: 'reset' });
    const day = this.clocks.onWallClock(storeId) ? this.anchor : dayOf(this.now(storeId));
    this.clocks.setAnchor(storeId, day === this.anchor ? undefined : day);
    const world = this.base(storeId);
    this.saw(storeId);
    world.markTouched();
    this.hold(storeId, world);
    this.compactIfDue();
    return world;
  }

  /** Raises a webhook through the simulator; failures are logged, never undo the write. */
  raise(storeId: string, event: WebhookEventName, properties: Record<string, unknown>, actor: EventActor): RaisedEvent | undefined {
    if (!this.options.events) return undefined;
    try {
      return this.options.events(storeId, event, properties, actor);
    } catch (e) {
      (this.options.log ?? ((l) => process.stderr.write(`${l}\n`)))(`sandbox: could not raise ${event} in ${storeId}: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** Resolves once the events raised so far are durable; undefined when nothing is pending. */
  settled(): Promise<void> | undefined {
    return this.options.eventsSettled?.();
  }

  close(): void {
    this.unwatchClocks();
    this.journal.close();
  }
}

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
