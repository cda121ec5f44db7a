// Fault and latency injection: rules per store and per operation that make the workbench slow, fail with
// a status (the contract's envelope), or drop the connection, for a share of the requests (`rate`) and
// optionally a number of them (`times`); and a delay asked per request (`Prefer: delay=800`). Rules come
// from `storefront-contract mock --fault ...` (every store starts with them) and from the back office
// (`/__simulator/stores/{store_id}/faults`: fault-routes.ts). What an app's retry, timeout and loading
// states need; not contract behaviour, so every injected answer says so (`X-Sandbox-Fault`, the log).
//
// Where the check sits (engine/pipeline.ts, one call): after routing, security, parameter validation and the body's
// reading (size, media type, JSON, and the schema for most operations), just before the answer. A request
// the contract refuses keeps its own answer (an unknown path 404, a missing token 401, a bad parameter
// 400): a developer's own mistake is never hidden behind an injected fault, and a rule's `rate` counts
// only the requests the operation would answer. The routes outside the contract (/__simulator, the images
// under /__sandbox-assets, /docs) are never faulted: they are answered before routing.
//
// Statuses stay within the contract: a rule's status must be one the operation documents (for `*`, one
// every operation documents), unless the rule says `allow_undocumented: true`. Randomness (the rate, a
// delay range) is drawn from a PRNG seeded by the rule's `seed` (the same seed, the same requests fail:
// reproducible), or Math.random without one. Memory is bounded: at most MAX_RULES_PER_STORE rules a store,
// MAX_FAULT_STORES stores with fault state.
import { closeSignal, type Exchange } from '../engine/exchange.js';
import type { ErrorItem } from 'storefront-contract/contract';
import { MockHttpError, type ReplyCode } from '../http/errors.js';
import { Random } from '../sandbox/random.js';
import type { OperationModel } from './spec-model.js';
import { closestNames } from '../http/suggest.js';
import { MAX_STORES_WITH_SETTINGS } from '../store/bounds.js';

/** The largest delay a rule or `Prefer: delay=` may ask for, in milliseconds. */
export const MAX_DELAY_MS = 60_000;
export const MAX_RULES_PER_STORE = 32;
/** Stores holding fault state (their rules and counters); past it, stores only started from --fault rules are forgotten first. */
export const MAX_FAULT_STORES = MAX_STORES_WITH_SETTINGS;
/** Response headers of an injected answer: which rule (or `prefer`), and the delay waited. */
export const FAULT_HEADER = 'x-sandbox-fault';
export const DELAY_HEADER = 'x-sandbox-delay-ms';

/** A rule as given (a POST body, a parsed --fault flag). */
export interface FaultRuleInput {
  operation?: unknown;
  delay_ms?: unknown;
  status?: unknown;
  drop?: unknown;
  rate?: unknown;
  times?: unknown;
  seed?: unknown;
  allow_undocumented?: unknown;
}

const FIELDS = ['operation', 'delay_ms', 'status', 'drop', 'rate', 'times', 'seed', 'allow_undocumented'] as const;

/** A rule as listed by the back office. */
export interface FaultRule {
  id: string;
  /** An operationId of the contract, or `*` for every operation. */
  operation: string;
  /** Milliseconds, or a range drawn from per request. */
  delay_ms: number | { min: number; max: number } | null;
  status: number | null;
  drop: boolean;
  /** Share of the matching requests it applies to, 0 to 1. */
  rate: number;
  /** Applies to at most this many requests (then stays listed, spent). */
  times: number | null;
  seed: string | null;
  allow_undocumented: boolean;
  /** Requests it was applied to so far. */
  applied: number;
  /** `--fault` (every store starts with it) or `back-office`. */
  source: 'flag' | 'back-office';
}

/** A start rule that could not be taken: the one-line reason, and the rule's text for the CLI. */
export class FaultRuleError extends Error {
  readonly name = 'FaultRuleError';
  constructor(
    message: string,
    readonly source: string,
  ) {
    super(message);
  }
}

/** What the check decided for one request. */
export interface Injection {
  /** The rule's id, `prefer`, or both (`flt_2, prefer`). */
  marker: string;
  delayMs: number;
  status?: number;
  drop?: boolean;
}

interface Held {
  rule: FaultRule;
  random: () => number;
}

interface StoreFaults {
  rules: Held[];
  next: number;
  /** Changed through the back office: kept (never evicted) until its rules are deleted. */
  edited: boolean;
}

/** A --fault rule: its fields, its text (for errors), and its store (unset: every store). */
export interface StartRule {
  input: FaultRuleInput;
  source: string;
  store?: string;
}

interface CheckedRule {
  rule: Omit<FaultRule, 'id' | 'applied' | 'source'>;
}

/**
 * The fault rules of every store. `decide` is the pipeline's one check (then `inject` carries it out);
 * `list`, `add`, `remove` and `clear` are the back office's. Stores start with the `--fault` rules (each store its own copy, with its
 * own counters and PRNG), then change independently.
 */
export class FaultRegistry {
  private readonly stores = new Map<string, StoreFaults>();
  private readonly byId = new Map<string, OperationModel[]>();
  private readonly start: Array<{ rule: CheckedRule['rule']; store?: string }>;

  /**
   * `operations`: every operation served (storefront and admin); `start`: the --fault rules (for one store,
   * or every store when `store` is unset), checked now: a FaultRuleError names the one that is wrong.
   */
  constructor(
    operations: readonly OperationModel[],
    start: readonly StartRule[] = [],
    /** Stores holding fault state at most (MAX_FAULT_STORES; tests lower it). */
    readonly maxStores = MAX_FAULT_STORES,
  ) {
    for (const op of operations) this.byId.set(op.operationId, [...(this.byId.get(op.operationId) ?? []), op]);
    if (start.length > MAX_RULES_PER_STORE) throw new FaultRuleError(`at most ${MAX_RULES_PER_STORE} --fault rules (a store holds at most that many)`, start[MAX_RULES_PER_STORE].source);
    this.start = start.map(({ input, source, store }) => {
      const checked = this.check(input);
      // Named as the flag names them (delay=, not delay_ms).
      if ('problems' in checked) throw new FaultRuleError(checked.problems.map((p) => `${p.name === 'delay_ms' ? 'delay' : p.name} ${p.message}`).join('; '), source);
      return { rule: checked.rule, store };
    });
  }

  /** False while no store has a rule and no --fault was given: the pipeline's check costs one property read. */
  get active(): boolean {
    return this.start.length > 0 || this.stores.size > 0;
  }

  list(storeId: string): FaultRule[] {
    return (this.storeOf(storeId, false)?.rules ?? []).map((h) => ({ ...h.rule }));
  }

  /** Adds a rule to a store: the rule, or the problems (400) or a full store (409) as a MockHttpError. */
  add(storeId: string, input: Record<string, unknown>): FaultRule {
    const unknown = Object.keys(input).filter((k) => !(FIELDS as readonly string[]).includes(k));
    if (unknown.length) {
      throw invalidRule(unknown.map((name) => ({ location: 'body', name, message: `is not a field of a fault rule (fields: ${FIELDS.join(', ')})` })));
    }
    const checked = this.check(input);
    if ('problems' in checked) throw invalidRule(checked.problems);
    const store = this.storeOf(storeId, true);
    if (!store) throw new MockHttpError(409, 'conflict', this.fullMessage());
    if (store.rules.length >= MAX_RULES_PER_STORE) {
      throw new MockHttpError(409, 'conflict', `Store ${storeId} already has ${MAX_RULES_PER_STORE} fault rules, the most a store holds; delete one first.`);
    }
    store.edited = true;
    const held = this.hold(store, checked.rule, 'back-office');
    return { ...held.rule };
  }

  /** Deletes one rule of a store; undefined when it has none of that id. The store's last rule frees its place. */
  remove(storeId: string, id: string): FaultRule | undefined {
    const store = this.existing(storeId);
    const at = store?.rules.findIndex((h) => h.rule.id === id) ?? -1;
    if (!store || at < 0) return undefined;
    store.edited = true;
    const [removed] = store.rules.splice(at, 1);
    this.forgetIfBare(storeId, store);
    return { ...removed.rule };
  }

  /** Deletes every rule of a store (the --fault ones too); the count removed. Frees the store's place. */
  clear(storeId: string): number {
    const store = this.existing(storeId);
    if (!store) return 0;
    const removed = store.rules.length;
    store.rules = [];
    store.edited = true;
    this.forgetIfBare(storeId, store);
    return removed;
  }

  /** How many stores hold fault state now (for tests and the 409's advice). */
  get heldStores(): number {
    return this.stores.size;
  }

  /**
   * The store's state for a change by the back office: held, or started from the --fault rules that apply
   * to it (deleting one of them must be remembered); undefined for a store with no rule at all, which a
   * deletion leaves as it is (nothing to hold).
   */
  private existing(storeId: string): StoreFaults | undefined {
    if (!this.stores.has(storeId) && !this.start.some((r) => r.store === undefined || r.store === storeId)) return undefined;
    return this.storeOf(storeId, true);
  }

  /**
   * A store left with no rule holds no place, unless --fault rules apply to it: then its empty list is
   * what it chose (a fresh copy would bring them back), kept until a restart.
   */
  private forgetIfBare(storeId: string, store: StoreFaults): void {
    if (store.rules.length > 0) return;
    if (this.start.some((r) => r.store === undefined || r.store === storeId)) return;
    this.stores.delete(storeId);
  }

  /** The 409 of a full registry, with what frees a place (and one store it would free). */
  private fullMessage(): string {
    // Least recently used first: the first store with rules of its own is the one to suggest.
    const freeable = [...this.stores].find(([id, s]) => s.rules.length > 0 && !this.start.some((r) => r.store === undefined || r.store === id));
    const how = freeable
      ? `deleting every rule of a store frees its place: DELETE /__simulator/stores/{store_id}/faults (store "${freeable[0].slice(0, 80)}" is the least recently used)`
      : 'every one of them was changed from its --fault rules, which it keeps until a restart (deleting its rules does not free it); restart the workbench to start them over';
    return `Fault rules are kept for at most ${this.maxStores} stores; ${how}.`;
  }

  /**
   * The pipeline's check for a request that matched `operationId` in `storeId`: the first rule (in the
   * order they were added) that matches the operation, is not spent and wins its rate draw, combined with
   * the request's own `Prefer: delay=` (which replaces the rule's delay). Undefined: answer as usual.
   */
  decide(storeId: string, operationId: string, preferDelay: number | undefined): Injection | undefined {
    let chosen: Held | undefined;
    if (this.active) {
      for (const held of this.storeOf(storeId, false)?.rules ?? []) {
        const r = held.rule;
        if (r.operation !== '*' && r.operation !== operationId) continue;
        if (r.times !== null && r.applied >= r.times) continue;
        if (r.rate < 1 && !(held.random() < r.rate)) continue;
        chosen = held;
        break;
      }
    }
    if (!chosen) return preferDelay === undefined ? undefined : { marker: 'prefer', delayMs: preferDelay };
    const r = chosen.rule;
    r.applied++;
    const ruleDelay = r.delay_ms === null ? 0 : typeof r.delay_ms === 'number' ? r.delay_ms : r.delay_ms.min + Math.floor(chosen.random() * (r.delay_ms.max - r.delay_ms.min + 1));
    return {
      marker: preferDelay === undefined ? r.id : `${r.id}, prefer`,
      delayMs: preferDelay ?? ruleDelay,
      ...(r.status !== null ? { status: r.status } : {}),
      ...(r.drop ? { drop: true } : {}),
    };
  }

  /** The operation's documented error response for an injected status (for its headers), if any. */
  documented(operationId: string, status: number): Record<string, any> | undefined {
    for (const op of this.byId.get(operationId) ?? []) {
      const response = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`];
      if (response) return response;
    }
    return undefined;
  }

  /**
   * A store's fault state, started from the --fault rules that apply to it on first use; undefined when it
   * has none and `edit` is false (nothing to keep), or when `maxStores` stores were edited already.
   */
  private storeOf(storeId: string, edit: boolean): StoreFaults | undefined {
    let store = this.stores.get(storeId);
    if (store) {
      // Most recently used last: the eviction below takes the oldest first.
      this.stores.delete(storeId);
      this.stores.set(storeId, store);
      return store;
    }
    const start = this.start.filter((r) => r.store === undefined || r.store === storeId);
    if (!edit && start.length === 0) return undefined;
    if (this.stores.size >= this.maxStores) {
      // A store never edited is only its copy of the --fault rules: forgetting it loses counters, no rule.
      const spare = [...this.stores].find(([, s]) => !s.edited);
      if (!spare) return undefined;
      this.stores.delete(spare[0]);
    }
    store = { rules: [], next: 1, edited: false };
    for (const { rule } of start) this.hold(store, rule, 'flag');
    this.stores.set(storeId, store);
    return store;
  }

  private hold(store: StoreFaults, rule: CheckedRule['rule'], source: FaultRule['source']): Held {
    const id = `flt_${store.next++}`;
    const held: Held = {
      rule: { id, ...structuredClone(rule), applied: 0, source },
      random: rule.seed === null ? Math.random : seeded(rule.seed),
    };
    store.rules.push(held);
    return held;
  }

  /** A rule's fields checked against the contract: the rule, or one problem per field. */
  private check(input: FaultRuleInput): CheckedRule | { problems: ErrorItem[] } {
    const problems: ErrorItem[] = [];
    const bad = (name: string, message: string) => problems.push({ location: 'body', name, message });
    const isInt = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

    let operation = '';
    if (typeof input.operation !== 'string' || input.operation === '') bad('operation', `is required: an operationId of the contract, or "*" for every operation`);
    else if (input.operation !== '*' && !this.byId.has(input.operation)) bad('operation', unknownOperation(input.operation, [...this.byId.keys()]));
    else operation = input.operation;

    let delay: FaultRule['delay_ms'] = null;
    if (input.delay_ms !== undefined && input.delay_ms !== null) {
      const d = input.delay_ms as { min?: unknown; max?: unknown };
      if (isInt(d, 0, MAX_DELAY_MS)) delay = d as unknown as number;
      else if (d && typeof d === 'object' && !Array.isArray(d) && Object.keys(d).every((k) => k === 'min' || k === 'max') && isInt(d.min, 0, MAX_DELAY_MS) && isInt(d.max, 0, MAX_DELAY_MS) && (d.min as number) <= (d.max as number)) {
        delay = { min: d.min as number, max: d.max as number };
      } else bad('delay_ms', `must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}, or a range from min to max (0 <= min <= max <= ${MAX_DELAY_MS})`);
    }

    const allow = input.allow_undocumented ?? false;
    if (typeof allow !== 'boolean') bad('allow_undocumented', 'must be true or false');

    let status: number | null = null;
    if (input.status !== undefined && input.status !== null) {
      if (!isInt(input.status, 400, 599)) bad('status', 'must be an error status from 400 to 599 (answered with the contract\'s envelope)');
      else {
        status = input.status as number;
        if (operation && allow !== true) {
          const missing = (operation === '*' ? [...this.byId.values()].flat() : this.byId.get(operation)!).filter((op) => !documents(op, status!));
          if (missing.length) {
            const list = missing.length === 1 ? `${missing[0].operationId} documents ${statuses(missing[0])}` : `${missing.length} operations do not document it (${missing.slice(0, 4).map((op) => op.operationId).join(', ')}${missing.length > 4 ? ', ...' : ''})`;
            bad('status', `${status} is not a status the contract documents here: ${list}; pick a documented one, or set allow_undocumented to send it anyway`);
          }
        }
      }
    }

    const drop = input.drop ?? false;
    if (typeof drop !== 'boolean') bad('drop', 'must be true or false (true: close the connection without an answer)');
    if (drop === true && status !== null) bad('drop', 'and status exclude each other: a dropped connection has no status');

    const rate = input.rate ?? 1;
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > 1) bad('rate', 'must be a number from 0 to 1 (0.3: 30% of the matching requests)');

    let times: number | null = null;
    if (input.times !== undefined && input.times !== null) {
      if (!isInt(input.times, 1, 1_000_000_000)) bad('times', 'must be an integer from 1 (the rule applies to at most that many requests)');
      else times = input.times as number;
    }

    let seed: string | null = null;
    if (input.seed !== undefined && input.seed !== null) {
      if ((typeof input.seed === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(input.seed)) || isInt(input.seed, 0, Number.MAX_SAFE_INTEGER)) seed = String(input.seed);
      else bad('seed', 'must be a number or a word (letters, digits, . _ -, at most 64)');
    }

    if (!problems.length && delay === null && status === null && drop !== true) bad('delay_ms', 'is missing: a rule needs a delay, a status or drop');
    if (problems.length) return { problems };
    return { rule: { operation, delay_ms: delay, status, drop: drop === true, rate: rate as number, times, seed, allow_undocumented: allow === true } };
  }
}

function invalidRule(problems: ErrorItem[]): MockHttpError {
  const first = problems.slice(0, 2).map((p) => `${p.name} ${p.message}`).join('; ');
  const more = problems.length > 2 ? ` (and ${problems.length - 2} more)` : '';
  return new MockHttpError(400, 'invalid_body', `Invalid fault rule: ${first}${more}${/[?.]$/.test(first + more) ? '' : '.'}`, problems);
}

function documents(op: OperationModel, status: number): boolean {
  return op.responses[String(status)] !== undefined || op.responses[`${String(status)[0]}XX`] !== undefined;
}

function statuses(op: OperationModel): string {
  return Object.keys(op.responses).filter((s) => s !== 'default').join(', ');
}

/** `unknown operation "listProduct"; did you mean listProducts?` (close ones), else the list. */
function unknownOperation(name: string, known: string[]): string {
  const close = closestNames(name, known);
  const shown = JSON.stringify(name.slice(0, 80));
  return close.length ? `${shown} names no operation of the contract; did you mean ${close.join(' or ')}?` : `${shown} names no operation of the contract; the operations are ${known.join(', ')}, or "*" for all`;
}


function seeded(seed: string): () => number {
  const random = new Random('fault-rule', seed);
  return () => random.next();
}

/** The envelope code of an injected status: the contract's where it has one (others: `injected_fault`, or `service_unavailable` for a 5XX). */
const CODES: Record<number, ReplyCode> = {
  400: 'invalid_parameter',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  417: 'expectation_failed',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
};

/**
 * Carries out an injection: marks the answer (header, log note), waits the delay (stopping if the client
 * goes), then drops the connection, throws the status for the error writer, or lets the answer go on.
 * Returns false when the connection is to be dropped (the rule drops it, or the client left while waiting).
 */
export async function inject(
  injection: Injection,
  target: { x: Exchange; storeId: string; operationId: string; registry?: FaultRegistry; note: (text: string) => void },
): Promise<boolean> {
  const { x } = target;
  const what = [injection.delayMs ? `delay ${injection.delayMs} ms` : '', injection.status ? `status ${injection.status}` : '', injection.drop ? 'connection dropped' : ''].filter(Boolean).join(', ');
  target.note(`[fault ${injection.marker}: ${what || 'delay 0 ms'}]`);
  x.out[FAULT_HEADER] = injection.marker;
  if (injection.delayMs > 0) {
    x.out[DELAY_HEADER] = String(injection.delayMs);
    if (!(await waitUnlessAborted(injection.delayMs, closeSignal(x)))) return false;
  }
  // The connection is dropped: the engine answers fetch's network error (Response.error()).
  if (injection.drop) return false;
  if (injection.status !== undefined) {
    const rule = injection.marker.split(',')[0];
    const response = target.registry?.documented(target.operationId, injection.status);
    const headers: Record<string, string> = {};
    for (const [name, header] of Object.entries<Record<string, any>>(response?.headers ?? {})) {
      const example = header?.example ?? header?.schema?.example ?? header?.schema?.examples?.[0];
      if (typeof example === 'string' || typeof example === 'number') headers[name.toLowerCase()] = String(example);
    }
    throw new MockHttpError(
      injection.status,
      CODES[injection.status] ?? (injection.status >= 500 ? 'service_unavailable' : 'injected_fault'),
      `Injected by the sandbox's fault rule ${rule} (outside the contract): ${target.operationId} answers ${injection.status}. See GET /__simulator/stores/${target.storeId}/faults; DELETE /__simulator/stores/${target.storeId}/faults/${rule} removes it.`,
      [],
      headers,
    );
  }
  return true;
}

/** Resolves true after `ms`, or false as soon as the request is aborted (the client left, the server closed). */
function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort);
  });
}

/** Banner lines for the --fault rules (none: no line). */
export function describeFaults(start: readonly StartRule[]): string[] {
  if (start.length === 0) return [];
  return [
    `faults      ${start.length} rule(s) from --fault (each store gets its own copy and counters): ${start.map((r) => r.source).join('  ')}`,
    '            list and change them at /__simulator/stores/{store_id}/faults; injected answers carry X-Sandbox-Fault',
  ];
}

/**
 * `--fault 'listProducts:status=400,rate=0.3'`: an operationId (or `*`), a colon, then comma-separated
 * keys: delay=800 or delay=100..900, status=N, drop, rate=0.3, times=N, seed=S, allow_undocumented,
 * store=ID. The rule's fields (checked against the contract when the workbench starts) and its store
 * (undefined: every store).
 */
export function parseFaultFlag(text: string): { input: FaultRuleInput; store?: string } {
  const fail = (message: string) => new FaultRuleError(message, text);
  const colon = text.indexOf(':');
  if (colon <= 0) throw fail('give <operationId>:<key>=<value>,... (e.g. listProducts:status=400,rate=0.3 or "*:delay=100..900")');
  const input: Record<string, unknown> = { operation: text.slice(0, colon).trim() };
  let store: string | undefined;
  const seen = new Set<string>();
  for (const part of text.slice(colon + 1).split(',')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    const key = (eq < 0 ? item : item.slice(0, eq)).trim();
    const value = eq < 0 ? undefined : item.slice(eq + 1).trim();
    const number = (what: string) => {
      if (value === undefined || !/^\d+(\.\d+)?$/.test(value)) throw fail(`${key} needs ${what}, got ${value === undefined ? 'nothing' : JSON.stringify(value.slice(0, 40))}`);
      return Number(value);
    };
    const flag = () => {
      if (value === undefined || value === 'true') return true;
      if (value === 'false') return false;
      throw fail(`${key} is true or false (or alone), got ${JSON.stringify(value.slice(0, 40))}`);
    };
    const canonical = key === 'undocumented' ? 'allow_undocumented' : key;
    if (seen.has(canonical)) throw fail(`${key} is given twice`);
    seen.add(canonical);
    switch (key) {
      case 'delay': {
        const range = /^(\d+)\.\.(\d+)$/.exec(value ?? '');
        input.delay_ms = range ? { min: Number(range[1]), max: Number(range[2]) } : number('milliseconds (delay=800) or a range (delay=100..900)');
        break;
      }
      case 'status':
        input.status = number('an HTTP status (status=404)');
        break;
      case 'rate':
        input.rate = number('a share from 0 to 1 (rate=0.3)');
        break;
      case 'times':
        input.times = number('a count (times=3)');
        break;
      case 'seed':
        if (!value) throw fail('seed needs a value (seed=42)');
        input.seed = /^\d{1,15}$/.test(value) ? Number(value) : value;
        break;
      case 'drop':
        input.drop = flag();
        break;
      case 'allow_undocumented':
      case 'undocumented':
        input.allow_undocumented = flag();
        break;
      case 'store':
        if (!value) throw fail('store needs a store id (store=demo-store)');
        store = value;
        break;
      default:
        throw fail(`unknown key ${JSON.stringify(key.slice(0, 40))}; the keys are delay, status, drop, rate, times, seed, allow_undocumented and store`);
    }
  }
  return { input, store };
}
