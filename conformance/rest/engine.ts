// The replay engine: every step of every scenario, each sent as soon as the steps it takes captures
// from have answered, at most `concurrency` requests in flight. It prepares each step's request and
// takes its captures; the one exchange loop (exchange.ts) sends it and has the rules judge the answer.
import { buildRequest, captureValue, inputValues, substitutionsFor } from './bindings.js';
import { createDispatcher } from './http.js';
import type { Scenario, Step } from './load.js';
import type { Rule } from '../rules/model.js';
import type { Exchange, LiveResponse, OutgoingRequest } from '../rules/observations/rest.js';
import { restRules } from '../rules/rest/index.js';
import { RuleTally, type Policy, type RuleResult } from '../rules/run.js';
import { Secrets } from './secrets.js';
import { notSent, runExchange, tallyExchange, type ExchangeLoop, type ExchangeResult } from './exchange.js';
import type { Agent } from 'undici';

export interface ReplayOptions {
  baseUrl: string;
  storeId?: string;
  /** Values of the scenarios' inputs (`api_key` comes from --api-key). */
  inputs: Record<string, string>;
  concurrency?: number;
  /** Judge only these operations (their producers still run, unjudged). */
  only?: string[];
  /** False: plain replay, no rules (the benchmark baseline). */
  checks?: boolean;
  rules?: readonly Rule<Exchange>[];
  /** --strict: warnings count as errors. */
  strict?: boolean;
  secrets?: Secrets;
  onResult?: (result: ExchangeResult) => void;
  /** Every answered exchange, judged or not (the generative phase learns the target's ids from them). */
  onExchange?: (step: Step, request: OutgoingRequest, live: LiveResponse) => void;
  /** Where the rules' judgements go; default a tally of this run alone. */
  tally?: RuleTally;
  /** Sends through this pool instead of one of the run's own (the caller closes it). */
  dispatcher?: Agent;
  /**
   * A shard's part of the run (`certify --shard`): only the steps of these scenarios are judged and
   * reported; of the other scenarios only the steps `teaches` selects are sent (with the steps they take
   * captures from), unjudged and unreported, for what the generative phase learns from their answers.
   */
  part?: { scenarios: ReadonlySet<string>; teaches?: (step: Step) => boolean };
}

export interface ReplayRun {
  results: ExchangeResult[];
  /** Each rule over every judged exchange: passed, failed, warned or skipped (it applied to none). */
  rules: RuleResult[];
  startedAt: Date;
  durationMs: number;
}

export async function replay(scenarios: Scenario[], options: ReplayOptions): Promise<ReplayRun> {
  const startedAt = new Date();
  const t0 = performance.now();
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const dispatcher = options.dispatcher ?? createDispatcher(concurrency);
  const secrets = options.secrets ?? new Secrets();
  for (const [name, value] of Object.entries(options.inputs)) if (Secrets.isSecretName(name)) secrets.add(value);
  const checks = options.checks ?? true;
  const rules = options.rules ?? restRules;
  const policy: Policy = { strict: options.strict };
  const tally = options.tally ?? new RuleTally(rules as readonly Rule<never>[], policy);
  const limiter = createLimiter(concurrency);
  const loop: ExchangeLoop = { dispatcher, rules: checks ? rules : [], policy, secrets };

  const selected = (step: Step) => !options.only?.length || options.only.includes(step.operation.operationId);
  const results: ExchangeResult[] = [];
  try {
    // Concurrency 1 replays in recorded order, scenario after scenario; above that, everything whose
    // captures are known is in flight together.
    const each = async (scenario: Scenario) => {
      const inputs = inputValues(scenario, options.inputs);
      const live = new Map<string, string>();
      // A scenario of another shard: only the steps that teach the generative phase, never reported.
      const reported = !options.part || options.part.scenarios.has(scenario.name);
      const runs = reported ? selected : (step: Step) => options.part?.teaches?.(step) ?? false;
      // Steps to run: the selected ones and, transitively, the steps they take captures from.
      const wanted = new Set<number>();
      const want = (i: number) => {
        if (wanted.has(i)) return;
        wanted.add(i);
        for (const n of scenario.steps[i].needs) want(n);
      };
      scenario.steps.filter(runs).forEach((s) => want(s.index));
      const done = new Map<number, Promise<void>>();
      const run = (step: Step): Promise<void> => {
        let p = done.get(step.index);
        if (!p) {
          p = (async () => {
            await Promise.all(step.needs.map((n) => run(scenario.steps[n])));
            const result = await limiter(() => runStep(scenario, step, inputs, live, reported && selected(step)));
            if (!reported) return;
            results.push(result);
            options.onResult?.(result);
          })();
          done.set(step.index, p);
        }
        return p;
      };
      const steps = scenario.steps.filter((s) => wanted.has(s.index));
      if (concurrency === 1) for (const step of steps) await run(step);
      else await Promise.all(steps.map(run));
    };
    if (concurrency === 1) for (const scenario of scenarios) await each(scenario);
    else await Promise.all(scenarios.map(each));
  } finally {
    if (!options.dispatcher) await dispatcher.close();
  }
  results.sort((a, b) => a.scenario.localeCompare(b.scenario) || a.index - b.index);
  return { results, rules: tally.results(), startedAt, durationMs: performance.now() - t0 };

  async function runStep(scenario: Scenario, step: Step, inputs: Map<string, string>, live: Map<string, string>, judged: boolean): Promise<ExchangeResult> {
    const base = {
      id: step.id,
      scenario: scenario.name,
      step: step.name,
      index: step.index,
      operationId: step.operation.operationId,
      method: step.entry.request.method.toUpperCase(),
      recordedStatus: step.recorded.status,
      judged,
    };
    const missing = scenario.captures.filter((c) => step.needs.includes(c.producer) && c.producer < step.index && !live.has(c.name));
    const subs = substitutionsFor(step, scenario, inputs, live);
    const request = buildRequest(step, subs, { baseUrl: options.baseUrl, storeId: options.storeId });
    const path = secrets.scrub(displayPath(request.url));
    const head = { ...base, path };
    if (missing.length) {
      const what = missing.map((c) => `${c.name} (from ${c.step} ${c.pointer})`).join(', ');
      return notSent(head, `not sent: the capture ${what} was not in the live response`, `not sent: capture ${what} missing`).result;
    }
    const producesCaptures = scenario.captures.some((c) => c.producer === step.index);
    const outcome = await runExchange(
      {
        head,
        request,
        step,
        parse: checks || producesCaptures,
        consistency: scenario.bindings.consistency.filter((c) => c.step === step.name || c.step === `#${step.index}`),
        capture(answer) {
          options.onExchange?.(step, request, answer);
          for (const c of scenario.captures) {
            if (c.producer !== step.index) continue;
            const value = captureValue(c, answer.body);
            if (value === undefined) continue;
            live.set(c.name, value);
            if (Secrets.isSecretName(c.name)) secrets.add(value);
          }
          return new Map<string, string>([...inputs, ...live]);
        },
      },
      loop,
    );
    tallyExchange(tally, outcome);
    return outcome.result;
  }
}

function displayPath(url: string): string {
  const u = new URL(url);
  return `${u.pathname.replace(/^\/api\/v1\/[^/]+\/storefront/, '')}${u.search}`;
}

function createLimiter(max: number) {
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    // A released slot is handed straight to the next waiter, so `active` never exceeds `max`.
    if (active >= max) await new Promise<void>((resolve) => queue.push(resolve));
    else active++;
    try {
      return await fn();
    } finally {
      const next = queue.shift();
      if (next) next();
      else active--;
    }
  };
}
