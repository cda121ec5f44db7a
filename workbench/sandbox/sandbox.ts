// The sandbox's state: one world per store id, built on first use from the seed, the fixture files and
// the journal; the identities issued by createAnonymousUser; and the one write path (journal first, then
// the world, then the events), shared by the storefront operations and the back office.
import { checkReferences, loadFixtures, type Sources } from './fixtures.js';
import { Identities } from './identities.js';
import { Journal, type Entry, type Put } from './journal.js';
import { loadTemplates } from './templates.js';
import { generateWorld } from './seed.js';
import type { EventActor, EventSink, RaisedEvent } from './events.js';
import type { Identity, WorldData } from './types.js';
import { World } from './world.js';

export interface SandboxOptions {
  /** `--seed`: the same seed gives the same world on every run. Default 1. */
  seed?: string | number;
  /** `--data-dir`: keep every write in `<dir>/sandbox.jsonl` across restarts. Default: in memory. */
  dataDir?: string;
  /** `--data`: fixture files replacing seeded resources (fixtures.ts). */
  fixturesDir?: string;
  /** `--lenient-auth`: accept any well-formed bearer token, not only the ones the sandbox issued. */
  lenientAuth?: boolean;
  /** `--ownership`: `open` (default) lets any token of the store read any customer's cards, orders and carts; `strict` only the customer it is bound to (register SF-036). */
  ownership?: Ownership;
  /** Products in a seeded catalog. Default 120. */
  catalogSize?: number;
  /** How webhooks are raised (the simulator's trigger); none when unset. */
  events?: EventSink;
  /** Resolves once the events raised so far are durable (the simulator's group commit); awaited before answering. */
  eventsSettled?: () => Promise<void> | undefined;
  now?: () => number;
  /** Notes at start-up (journal repairs). Default: stderr. */
  log?: (line: string) => void;
}

export type Ownership = 'open' | 'strict';

/** Worlds nobody wrote to are rebuilt on demand; past this many, the oldest of them is dropped. */
const MAX_PRISTINE_WORLDS = 64;

export class Sandbox {
  readonly identities = new Identities();
  readonly seed: string | number;
  readonly lenientAuth: boolean;
  readonly ownership: Ownership;
  private readonly worlds = new Map<string, World>();
  private readonly pending = new Map<string, Entry[]>();

  private constructor(
    private readonly options: SandboxOptions,
    readonly journal: Journal,
    private readonly fixtures: { data: Partial<WorldData>; sources: Sources } | undefined,
  ) {
    this.seed = options.seed ?? 1;
    this.lenientAuth = options.lenientAuth === true;
    this.ownership = options.ownership ?? 'open';
    for (const entry of journal.entries) {
      if (entry.op === 'identity') this.identities.add(entry.identity);
      else this.pending.set(entry.store, [...(this.pending.get(entry.store) ?? []), entry]);
    }
  }

  static async create(options: SandboxOptions = {}): Promise<Sandbox> {
    await loadTemplates();
    const fixtures = options.fixturesDir ? await loadFixtures(options.fixturesDir) : undefined;
    const journal = options.dataDir ? Journal.open(options.dataDir) : Journal.inMemory();
    for (const note of journal.notes) (options.log ?? ((l) => process.stderr.write(`${l}\n`)))(note);
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

  now(): number {
    return (this.options.now ?? Date.now)();
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  get persistent(): boolean {
    return this.journal.persistent;
  }

  /** The seeded world of a store, before any write. */
  private base(storeId: string): World {
    const given = this.fixtures ? structuredClone(this.fixtures.data) : {};
    const data = generateWorld({ seed: this.seed, storeId, catalogSize: this.options.catalogSize }, given);
    if (this.fixtures) checkReferences(data, this.fixtures.sources);
    return new World(storeId, data);
  }

  /** The store's world, built on first use: seed and fixtures, then the journal's writes for it. */
  world(storeId: string): World {
    let world = this.worlds.get(storeId);
    if (world) return world;
    world = this.base(storeId);
    for (const entry of this.pending.get(storeId) ?? []) {
      if (entry.op === 'reset') world = this.base(storeId);
      else if (entry.op === 'put') applyPuts(world, entry.puts);
      world.markTouched();
    }
    this.pending.delete(storeId);
    this.evictPristine();
    this.worlds.set(storeId, world);
    return world;
  }

  private evictPristine(): void {
    const pristine = [...this.worlds.entries()].filter(([, w]) => !w.touched);
    if (pristine.length >= MAX_PRISTINE_WORLDS) this.worlds.delete(pristine[0][0]);
  }

  /** The one write path: journal (fsync'd with --data-dir), then the world. */
  commit(storeId: string, puts: Put[]): void {
    const world = this.world(storeId);
    this.journal.append({ v: 1, store: storeId, at: this.nowIso(), op: 'put', puts });
    applyPuts(world, puts);
    world.markTouched();
  }

  addIdentity(identity: Identity): void {
    this.journal.append({ v: 1, store: identity.store_id, at: this.nowIso(), op: 'identity', identity });
    this.identities.add(identity);
  }

  /** Back to the seeded world (identities stay: the apps holding their tokens keep working). */
  reset(storeId: string): World {
    this.journal.append({ v: 1, store: storeId, at: this.nowIso(), op: 'reset' });
    const world = this.base(storeId);
    world.markTouched();
    this.pending.delete(storeId);
    this.worlds.set(storeId, world);
    return world;
  }

  /** Raises a webhook through the simulator; failures are logged, never undo the write. */
  raise(storeId: string, event: string, properties: Record<string, unknown>, actor: EventActor): RaisedEvent | undefined {
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
    this.journal.close();
  }
}

export function applyPuts(world: World, puts: readonly Put[]): void {
  for (const put of puts) {
    if (put.kind === 'product') world.putProduct(put.record);
    else if (put.kind === 'customer') world.putCustomer(put.record);
    else if (put.kind === 'cart') world.putCart(put.record);
    else if (put.kind === 'order') world.putOrder(put.record);
  }
}
