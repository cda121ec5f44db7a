// `certify --shard i/N`: which part of a run a shard sends. The run is cut into units that never split a
// chain of dependent steps: a recorded scenario stays whole (its steps share captured ids and server
// state), and the generated cases of one operation stay together (they share a case counter, a base
// request and shrinking). Units are weighed by what they cost in time (unitCosts: the measured cost of a
// request of each operation, replayed and generated, committed in costs.json beside the recordings, times
// the requests a unit sends; a replayed step waits for its answer, the generated cases of several
// operations are in flight together) and dealt out largest first to the lightest shard, ties broken by
// name, so the same recordings, contract, costs and flags give the same split on every machine, whatever
// the seed or the target.
//
// What a shard's generated cases need of the replay: the generator learns the target's ids from the
// replayed answers (generate/world.ts). A shard that owns an operation's generated cases also sends, unjudged
// and unreported, the replayed steps that teach that operation's ids (its own recorded steps and those of
// the operations whose `links` point at it, with the steps they take captures from), so its world is the
// one an unsharded run would have.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { trafficDir, type Scenario, type Step } from './load.js';

/** Shard `index` (from 1) of `total`. */
export interface ShardSpec {
  index: number;
  total: number;
}

export const MAX_SHARDS = 64;

/** `2/4` -> { index: 2, total: 4 }; undefined when the text is not `i/N` with 1 <= i <= N <= MAX_SHARDS. */
export function parseShard(text: string): ShardSpec | undefined {
  const m = /^(\d{1,3})\/(\d{1,3})$/.exec(text.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const total = Number(m[2]);
  return index >= 1 && total >= 1 && index <= total && total <= MAX_SHARDS ? { index, total } : undefined;
}

export const shardLabel = (s: ShardSpec) => `${s.index}/${s.total}`;

/** A piece of the run that one shard sends whole. */
export interface ShardUnit {
  kind: 'scenario' | 'operation';
  /** The scenario's name, or the operationId whose generated cases it is. */
  name: string;
  /** What it is expected to cost: an estimate of its time in ms (unitCosts), or any measure the units share. */
  weight: number;
}

/** The part of the run shard `spec.index` sends: its scenarios and the operations whose cases it generates. */
export interface ShardPart {
  spec: ShardSpec;
  scenarios: Set<string>;
  operations: Set<string>;
}

/**
 * Deals the units out to `total` shards: heaviest first (then by kind and name), each to the shard with the
 * least weight so far (the lowest index on a tie). Deterministic: it reads nothing but the units.
 */
export function assignUnits(units: readonly ShardUnit[], total: number): Map<string, number> {
  const key = (u: ShardUnit) => `${u.kind}:${u.name}`;
  const order = [...units].sort((a, b) => b.weight - a.weight || key(a).localeCompare(key(b), 'en'));
  const load = Array.from({ length: total }, () => 0);
  const out = new Map<string, number>();
  for (const unit of order) {
    let lightest = 0;
    for (let i = 1; i < total; i++) if (load[i] < load[lightest]) lightest = i;
    load[lightest] += unit.weight;
    out.set(key(unit), lightest + 1);
  }
  return out;
}

export function partOf(units: readonly ShardUnit[], spec: ShardSpec): ShardPart {
  const assigned = assignUnits(units, spec.total);
  const mine = units.filter((u) => assigned.get(`${u.kind}:${u.name}`) === spec.index);
  return {
    spec,
    scenarios: new Set(mine.filter((u) => u.kind === 'scenario').map((u) => u.name)),
    operations: new Set(mine.filter((u) => u.kind === 'operation').map((u) => u.name)),
  };
}

/**
 * What a request of each operation costs, in ms, as measured (scripts/shard-costs.ts) against the sandbox
 * in process: a replayed step (one in flight), and a generated case (the mean time of one while the
 * generative phase has several operations in flight). `costs.json` beside the recordings; an operation it
 * does not list costs the median of those it does.
 */
export interface RequestCosts {
  replayedStep: Record<string, number>;
  generatedCase: Record<string, number>;
}

export const COSTS_FILE = 'costs.json';

/** The costs committed beside the tools' recordings; none (every request alike) when the file is missing. */
export function loadRequestCosts(): RequestCosts {
  try {
    const doc = JSON.parse(readFileSync(path.join(trafficDir, COSTS_FILE), 'utf8')) as Partial<RequestCosts>;
    const table = (t: unknown) => Object.fromEntries(Object.entries(t && typeof t === 'object' ? t : {}).filter(([, v]) => typeof v === 'number' && Number.isFinite(v) && v > 0)) as Record<string, number>;
    return { replayedStep: table(doc.replayedStep), generatedCase: table(doc.generatedCase) };
  } catch {
    return { replayedStep: {}, generatedCase: {} };
  }
}

/** A table's cost of `operationId`, or the median of the table (1 when it is empty). */
function costOf(table: Readonly<Record<string, number>>, operationId: string): number {
  const own = table[operationId];
  if (own !== undefined) return own;
  const all = Object.values(table).sort((a, b) => a - b);
  return all.length ? all[Math.floor(all.length / 2)] : 1;
}

/** Weights are whole microseconds: sums and comparisons of them are exact, the same on every machine. */
const micros = (ms: number) => Math.max(1, Math.round(ms * 1000));

const NO_COSTS: RequestCosts = { replayedStep: {}, generatedCase: {} };

/**
 * The scenario units of a run: each scenario with a step to run (under --only, a selected one), weighed by
 * what its steps cost, shared among the requests the replay has in flight (`inFlight`, --concurrency).
 */
export function scenarioUnits(scenarios: readonly Scenario[], options: { only?: readonly string[]; inFlight?: number; costs?: RequestCosts } = {}): ShardUnit[] {
  const { only, costs = NO_COSTS } = options;
  const selected = (s: Step) => !only?.length || only.includes(s.operation.operationId);
  return scenarios
    .map((scenario) => {
      const steps = [...closure(scenario, scenario.steps.filter(selected))];
      const ms = steps.reduce((sum, i) => sum + costOf(costs.replayedStep, scenario.steps[i].operation.operationId), 0);
      return { kind: 'scenario' as const, name: scenario.name, weight: steps.length && micros(ms / Math.max(1, options.inFlight ?? 1)) };
    })
    .filter((u) => u.weight > 0);
}

/**
 * The unit of an operation's generated cases: `cases` requests (generate/phase.ts expectedCases), each
 * costing its measured time shared with the other operations in flight (`inFlight`, the generative
 * phase's concurrency).
 */
export function operationUnit(operationId: string, cases: number, inFlight: number, costs: RequestCosts = NO_COSTS): ShardUnit {
  return { kind: 'operation', name: operationId, weight: micros((cases * costOf(costs.generatedCase, operationId)) / Math.max(1, inFlight)) };
}

/** The indexes of `steps` and, transitively, of the steps they take captures from. */
export function closure(scenario: Scenario, steps: readonly Step[]): Set<number> {
  const out = new Set<number>();
  const want = (i: number) => {
    if (out.has(i)) return;
    out.add(i);
    for (const n of scenario.steps[i].needs) want(n);
  };
  for (const s of steps) want(s.index);
  return out;
}

/** What the split needs of an operation's `links` (generate/operation-specs.ts LinkSpec). */
export interface LinkView {
  operationId: string;
  parameters: Record<string, string>;
  body: Record<string, string>;
  security: Record<string, string>;
}

/**
 * The replayed steps that teach the world of these generated operations: the steps recorded as accepted
 * (2XX: the generator learns from nothing else, certify.ts) of the operations themselves and of each
 * operation whose `links` carry ids into one of them; and, for the credential a link carries (the
 * anonymous login's token), the first such step of the recordings that yields one (any token of the
 * target serves).
 */
export function teachingSteps(operations: ReadonlySet<string>, links: ReadonlyMap<string, readonly LinkView[]>, scenarios: readonly Scenario[]): (step: Step) => boolean {
  const teachers = new Set(operations);
  const tokenSources = new Set<string>();
  for (const [from, list] of links) {
    for (const link of list) {
      if (!operations.has(link.operationId)) continue;
      if (Object.keys(link.parameters).length || Object.keys(link.body).length) teachers.add(from);
      if (Object.keys(link.security).length) tokenSources.add(from);
    }
  }
  const accepted = (step: Step) => step.recorded.status >= 200 && step.recorded.status < 300;
  const tokenStep = scenarios.flatMap((s) => s.steps).find((s) => tokenSources.has(s.operation.operationId) && accepted(s));
  return (step) => (teachers.has(step.operation.operationId) && accepted(step)) || step === tokenStep;
}

/**
 * What the recordings hold, as one hash: every scenario's HAR and bindings file. Shards replaying different
 * recordings are not parts of one run.
 */
export function recordingsHash(scenarios: readonly Scenario[]): string {
  const hash = createHash('sha256');
  for (const s of [...scenarios].sort((a, b) => a.name.localeCompare(b.name, 'en'))) {
    hash.update(`${s.name}\n`);
    hash.update(readFileSync(s.harFile));
    hash.update('\n');
    try {
      hash.update(readFileSync(s.bindingsFile));
    } catch {
      hash.update('(no bindings)');
    }
    hash.update('\n');
  }
  return hash.digest('hex');
}
