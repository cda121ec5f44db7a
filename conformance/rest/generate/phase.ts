// The generative phase of `certify --generate N`: for every operation, edge cases, N valid requests,
// N requests that each break one constraint, and the credential variants, each judged by the same
// response rules as the replay plus the two generated-case rules. fast-check drives it: a failing
// request is shrunk to a minimal one and reported with a `curl` line; the seed replays the run. Each
// request goes through the one exchange loop (../exchange.ts), as the replayed ones do.
import fc from 'fast-check';
import type { Agent } from 'undici';
import { storefrontOperations } from 'storefront-contract';
import type { Rule } from '../../rules/model.js';
import type { Policy, RuleTally } from '../../rules/run.js';
import type { Exchange, GeneratedCase } from '../../rules/observations/rest.js';
import { runExchange, tallyExchange, type ExchangeLoop, type ExchangeOutcome, type ExchangeResult } from '../exchange.js';
import type { Secrets } from '../secrets.js';
import { breaking, credentialVariants, edgeRequests, invalidRequests, securityRequests, validRequests, violationsOf, withCredentials } from './cases.js';
import type { OperationSpec } from './operation-specs.js';
import { curlLine, toOutgoing, type CaseKind, type GeneratedRequest, type Target } from './request.js';
import { edgeValues } from './schema-arbitrary.js';
import { World } from './world.js';

export interface GenerateOptions {
  operations: OperationSpec[];
  /** Valid and invalid requests per operation (each), besides the edge cases and credential variants. */
  count: number;
  seed: number;
  target: Target & { storeId: string };
  world: World;
  /** The run's REST rules: the exchange loop hands each case to those that judge generated cases. */
  rules: readonly Rule<Exchange>[];
  tally: RuleTally;
  policy: Policy;
  secrets: Secrets;
  dispatcher: Agent;
  concurrency: number;
  only?: string[];
  onResult?: (result: ExchangeResult) => void;
}

/** Cases sent per operation, by kind (shrinking steps not counted). */
export type CaseCounts = Record<string, { valid: number; invalid: number; security: number; shrunk: number }>;

export interface GenerateRun {
  results: ExchangeResult[];
  cases: CaseCounts;
  seed: number;
  durationMs: number;
}

// Shrinking sends one request a step; a fault on every request must still end in bounded time.
const SHRINK_TIME_LIMIT_MS = 15_000;

export async function generate(options: GenerateOptions): Promise<GenerateRun> {
  const t0 = performance.now();
  const { operations, world, target } = options;
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const selected = operations.filter((op) => !options.only?.length || options.only.includes(op.operationId));
  const results: ExchangeResult[] = [];
  const loop: ExchangeLoop = { dispatcher: options.dispatcher, rules: options.rules, policy: options.policy, secrets: options.secrets };
  const cases: CaseCounts = {};
  for (const op of selected) cases[op.operationId] = { valid: 0, invalid: 0, security: 0, shrunk: 0 };

  // Producers first: operations without path parameters answer with the ids the others need.
  const first = selected.filter((op) => !op.params.some((p) => p.in === 'path'));
  const then = selected.filter((op) => !first.includes(op));
  for (const group of [first, then]) await inParallel(group, options.concurrency, (op) => runOperation(op));
  results.sort((a, b) => a.operationId.localeCompare(b.operationId) || a.index - b.index);
  return { results, cases, seed: options.seed, durationMs: performance.now() - t0 };

  async function runOperation(op: OperationSpec): Promise<void> {
    const seedOf = (kind: string) => mix(options.seed, `${op.operationId} ${kind}`);
    let index = 0;
    // One property per kind: every request of it must pass every error-level rule.
    const property = async (kind: CaseKind, arbitrary: fc.Arbitrary<GeneratedRequest>, examples: GeneratedRequest[], runs: number) => {
      let failing = false;
      const prop = fc.asyncProperty(arbitrary, async (req) => {
        const outcome = await exchange(op, req, index);
        // After the first failure every call is a shrinking step: not a case of its own.
        if (!failing) {
          index++;
          cases[op.operationId][kind]++;
          if (!outcome.failed) record(outcome);
        }
        if (outcome.failed) failing = true;
        return !outcome.failed;
      });
      const limits = { interruptAfterTimeLimit: SHRINK_TIME_LIMIT_MS, markInterruptAsFailure: false };
      // Examples count in fast-check's numRuns: the random cases come on top of them.
      let details = await fc.check(prop, { seed: seedOf(kind), numRuns: examples.length + runs, examples: examples.map((e) => [e] as [GeneratedRequest]), ...limits });
      if (details.failed && details.counterexample && examples.includes(details.counterexample[0]) && runs > 0) {
        // An edge case failed: fast-check cannot shrink a value it did not generate. Look for the same
        // fault among random cases, which it can shrink; keep the edge case if none shows it.
        const shrinkable = await fc.check(prop, { seed: seedOf(kind), numRuns: runs, ...limits });
        if (shrinkable.failed && shrinkable.counterexample) details = shrinkable;
      }
      if (details.failed && details.counterexample) {
        const [minimal] = details.counterexample;
        const outcome = await exchange(op, minimal, index++, details.numShrinks);
        cases[op.operationId].shrunk++;
        record(outcome);
      }
    };

    const valid = validRequests(op, world);
    await property('valid', valid, edgeRequests(op, world, seedOf('edges')), options.count);
    const violations = violationsOf(op);
    const invalid = invalidRequests(valid, violations);
    // Every violation (and every credential variant) once as an example on one valid request, then random ones.
    const [base] = fc.sample(valid, { numRuns: 1, seed: seedOf('base') });
    if (invalid) await property('invalid', invalid, violations.map((v) => breaking(base, v)), options.count);
    const variants = credentialVariants(op);
    const security = securityRequests(valid, variants);
    if (security) await property('security', security, variants.map((v) => withCredentials(base, v)), 0);
  }

  /** A reported case: its exchange in the results, its judgements in the rules' results. */
  function record(outcome: ExchangeOutcome): void {
    tallyExchange(options.tally, outcome);
    results.push(outcome.result);
    options.onResult?.(outcome.result);
  }

  async function exchange(op: OperationSpec, req: GeneratedRequest, index: number, shrinks?: number): Promise<ExchangeOutcome> {
    const request = toOutgoing(op, req, target);
    const meta = storefrontOperations[op.operationId as keyof typeof storefrontOperations];
    const generated: GeneratedCase = { kind: req.kind, label: req.label, expect: req.expect, unknownIds: req.unknownIds, designed: req.designed ?? false };
    const base = {
      id: `generated/${op.operationId}/${req.kind}#${index}`,
      scenario: 'generated',
      step: `${req.kind}: ${req.label}`,
      index,
      operationId: op.operationId,
      method: request.method,
      path: options.secrets.scrub(displayPath(request.url, target.apiBasePath)),
      recordedStatus: 0,
      judged: true,
      generated: { kind: req.kind, label: req.label, ...(shrinks !== undefined ? { shrinks, curl: options.secrets.scrub(curlLine(request, target)) } : {}) },
    };
    return runExchange(
      {
        head: base,
        request,
        // No recording: the answer's own status stands in for it (the generated-case rules judge it).
        step: (live) => ({ scenario: 'generated', index, name: base.step, id: base.id, operation: meta, recorded: { status: live.status, contentType: live.contentType, body: undefined } }),
        parse: true,
        generated,
        capture(live) {
          if (req.kind === 'valid' && live.status >= 200 && live.status < 300) learnToken(op, req, request.url, live.status, live.body);
          return new Map();
        },
      },
      loop,
    );
  }

  /**
   * The world stays as the replay left it: an operation's cases depend on the seed and the replay only,
   * never on which other operations' cases ran before or beside it, so the same seed sends the same cases
   * at any concurrency and in any shard (`certify --shard`). Only a token, when the replay yielded none,
   * is taken from a generated answer.
   */
  function learnToken(op: OperationSpec, req: GeneratedRequest, url: string, status: number, answer: unknown): void {
    if (target.token) return;
    const scratch = { world: new World(), target, secrets: options.secrets, operations: byId };
    learnExchange(scratch, op, { url, pathParams: req.pathParams, query: req.query, body: req.body && 'json' in req.body ? req.body.json : undefined }, status, answer);
  }
}

export interface Learning {
  world: World;
  target: Target;
  secrets: Secrets;
  operations: Map<string, OperationSpec>;
}

/**
 * What an accepted exchange (replayed or generated) teaches: the ids it named exist, the ids its links
 * point at exist, and an `access_token` in its answer opens the bearer operations.
 */
export function learnExchange(
  into: Learning,
  op: OperationSpec,
  request: { url: string; pathParams: Record<string, string>; query: Record<string, unknown>; body: unknown },
  status: number,
  answer: unknown,
): void {
  into.world.learnFromAccepted(op, new URL(request.url), into.target.apiBasePath, request.body);
  into.world.learnFromLinks(op.links, status, answer, request, into.operations);
  // The token the spec's links name (x-security); a bare `content.access_token` where no link says so.
  const linked = [...into.world.credentials][0];
  const token = linked ?? (answer as { content?: { access_token?: unknown } } | undefined)?.content?.access_token;
  if (typeof token === 'string' && !into.target.token) {
    into.target.token = token;
    into.secrets.add(token);
  }
}

function displayPath(url: string, apiBasePath: string): string {
  const u = new URL(url);
  return `${u.pathname.startsWith(apiBasePath) ? u.pathname.slice(apiBasePath.length) : u.pathname}${u.search}`;
}

/**
 * The cases an operation is expected to send (edge cases, N valid, every violation and N invalid, the
 * credential variants), before shrinking: what `certify --shard` weighs an operation's cases by.
 */
export function expectedCases(op: OperationSpec, count: number): number {
  const edges = 1 + op.params.filter((p) => p.in !== 'path').reduce((n, p) => n + edgeValues(p.schema).length, 0);
  const violations = violationsOf(op).length;
  return edges + count + (violations ? violations + count : 0) + credentialVariants(op).length;
}

/** A 32-bit seed per operation and kind, so one operation's cases do not depend on the others'. */
function mix(seed: number, text: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x9e3779b1) >>> 0;
  return h ^ (h >>> 16);
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  }));
}
