// The one exchange loop of REST certification. A prepared request, a replayed step (engine.ts) or a
// generated case (generate/phase.ts), is sent; its observation is captured (the request, the answer and
// its timing, the values it yields) and judged by every rule; the result per exchange comes back. The
// engine and the phase only prepare requests and decide what to do with the outcome: neither sends nor
// judges on its own. What a rule receives (Exchange) lives with the rules: rules/observations/rest.ts.
import type { Agent } from 'undici';
import type { Judgement, Rule, Severity } from '../rules/model.js';
import { judgesGenerated, type ConsistencyCheck, type Exchange, type ExchangeStep, type GeneratedCase, type LiveResponse, type OutgoingRequest } from '../rules/observations/rest.js';
import { judge, type Policy, type RuleTally } from '../rules/run.js';
import { send, transportError } from './http.js';
import type { Secrets } from './secrets.js';

/** A finding on one exchange: the rule that found it (`replay` when the exchange could not be sent). */
export interface ExchangeFinding {
  rule: string;
  subject: string;
  severity: Severity;
  message: string;
}

export interface ExchangeResult {
  id: string;
  scenario: string;
  step: string;
  index: number;
  operationId: string;
  method: string;
  /** Path and query inside the storefront API, secrets scrubbed. */
  path: string;
  recordedStatus: number;
  status?: number;
  durationMs: number;
  findings: ExchangeFinding[];
  /** Set when the exchange was not sent (a capture it needs was missing) or the transport failed. */
  error?: string;
  /** False for steps run only to provide captures to `--only` operations. */
  judged: boolean;
  /** Requests of the generative phase: the case, and for a shrunk failure its `curl` reproduction. */
  generated?: { kind: GeneratedCase['kind']; label: string; shrinks?: number; curl?: string };
  /** An exchange observed in traffic (the validating proxy, `certify --from-har`): nothing was recorded for it. */
  observed?: true;
}

/** What an exchange's result says before it is sent (its fields in report order). */
export type ExchangeHead = Omit<ExchangeResult, 'status' | 'durationMs' | 'findings' | 'error'>;

/** One request ready to send, from either source, and what the rules compare its answer with. */
export interface PreparedExchange {
  head: ExchangeHead;
  request: OutgoingRequest;
  /** The recorded step; for a generated case, one built from the answer (it has no recording). */
  step: ExchangeStep | ((live: LiveResponse) => ExchangeStep);
  /** Parse the body as JSON (always when judged; without rules only when captures are taken from it). */
  parse: boolean;
  /** Cross-call checks declared for the step. */
  consistency?: ConsistencyCheck[];
  generated?: GeneratedCase;
  /**
   * Takes what the answer yields before it is judged (captures, ids learnt) and returns the values the
   * rules see (the scenario's inputs and captures); none by default.
   */
  capture?(live: LiveResponse): Map<string, string>;
}

/**
 * What every exchange of a run shares: the run's REST rules, each exchange handed to those that judge it
 * (a generated case to the rules with `appliesTo: 'generated'` or `'all'`). No rules: sent and captured, not judged (the
 * benchmark baseline).
 */
export interface ExchangeLoop {
  dispatcher: Agent;
  rules: readonly Rule<Exchange>[];
  policy: Policy;
  secrets: Secrets;
}

export interface ExchangeOutcome {
  result: ExchangeResult;
  /** Each rule's judgement (secrets scrubbed), in rule order; none when the request got no answer. */
  judgements: Array<[string, Judgement]>;
  /** An error finding, a failed transport included: what the generative phase shrinks. */
  failed: boolean;
}

/** Sends one prepared request, captures its observation and judges it with every rule of the loop. */
export async function runExchange(prepared: PreparedExchange, loop: ExchangeLoop): Promise<ExchangeOutcome> {
  const { head, request } = prepared;
  let live: LiveResponse;
  try {
    live = await send(request, loop.dispatcher, prepared.parse);
  } catch (error) {
    const message = loop.secrets.scrub(`request failed: ${transportError(error)}`);
    return notSent(head, message, message);
  }
  const values = prepared.capture?.(live) ?? new Map<string, string>();
  const observation: Exchange = {
    step: typeof prepared.step === 'function' ? prepared.step(live) : prepared.step,
    request,
    live,
    values,
    consistency: prepared.consistency ?? [],
    ...(prepared.generated ? { generated: prepared.generated } : {}),
  };
  // Steps run only for the captures an `--only` operation needs are sent, not judged.
  const rules = !head.judged ? [] : prepared.generated ? loop.rules.filter(judgesGenerated) : loop.rules;
  const { findings, judgements } = judgeExchange(observation, rules, loop.policy, (text) => loop.secrets.scrub(text));
  const result: ExchangeResult = { ...head, status: live.status, durationMs: Math.round(live.durationMs * 10) / 10, findings };
  return { result, judgements, failed: findings.some((f) => f.severity === 'error') };
}

/**
 * The one judge of a REST exchange, whatever its source (replayed, generated, or observed in traffic by the
 * validating proxy and `certify --from-har`): every rule given judges the observation under the run's
 * policy, a rule that crashes is a finding of its own (rules/run.ts `judge`), and `scrub` takes secrets out
 * of every finding before anything keeps it.
 */
export function judgeExchange(observation: Exchange, rules: readonly Rule<Exchange>[], policy: Policy, scrub: (text: string) => string): Pick<ExchangeOutcome, 'judgements'> & { findings: ExchangeFinding[] } {
  return scrubJudgements(judgeRules(observation, rules, policy), scrub);
}

/** Each rule's judgement of the observation, in rule order, not yet scrubbed (the first half of `judgeExchange`). */
export function judgeRules(observation: Exchange, rules: readonly Rule<Exchange>[], policy: Policy): Array<[string, Judgement]> {
  return rules.map((rule) => [rule.id, judge(rule, observation, policy)]);
}

/**
 * Secrets out of the judgements, and their findings listed (the second half of `judgeExchange`: the
 * validating proxy runs the first half on its judge's thread for a large body, this one where the secrets are).
 */
export function scrubJudgements(raw: ReadonlyArray<[string, Judgement]>, scrub: (text: string) => string): Pick<ExchangeOutcome, 'judgements'> & { findings: ExchangeFinding[] } {
  const findings: ExchangeFinding[] = [];
  const judgements: ExchangeOutcome['judgements'] = [];
  for (const [ruleId, judgement] of raw) {
    const scrubbed = Array.isArray(judgement) ? judgement.map((f) => ({ ...f, subject: scrub(f.subject), message: scrub(f.message) })) : judgement;
    judgements.push([ruleId, scrubbed]);
    if (Array.isArray(scrubbed)) for (const f of scrubbed) findings.push({ rule: ruleId, ...f });
  }
  return { findings, judgements };
}

/** The outcome of a request that was not sent, or got no answer: one `replay` error, nothing judged. */
export function notSent(head: ExchangeHead, error: string, message: string): ExchangeOutcome {
  return { result: { ...head, durationMs: 0, error, findings: [{ rule: 'replay', subject: 'request', severity: 'error', message }] }, judgements: [], failed: true };
}

/** A reported exchange's judgements into the run's per-rule results, each where its exchange is. */
export function tallyExchange(tally: RuleTally, outcome: ExchangeOutcome): void {
  for (const [ruleId, judgement] of outcome.judgements) tally.add(ruleId, judgement, outcome.result.id);
}
