// What a REST rule receives: one exchange (a replayed step or a generated case), as the one exchange loop
// (conformance/rest/exchange.ts) observed it. The types live with the rules, so a rule reads nothing of
// the engines; the engines build these observations and import the types from here.
import type { Rule } from '../model.js';

/** The request as sent: method, absolute URL, headers (names lowercase), body text. */
export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The answer as the rules need it. */
export interface LiveResponse {
  status: number;
  contentType?: string;
  /** Parsed JSON body, or undefined when the body is not JSON (see `parseError`). */
  body: unknown;
  parseError?: string;
  durationMs: number;
}

/** The operation an exchange exercised, as the generated operation table states it. */
export interface ExchangeOperation {
  operationId: string;
  /** The documented statuses (`200`, `404`, ...). */
  responses: readonly string[];
  /** The security schemes it accepts, any one of them (`storeApiKey`, `bearerAuth`); none: public. */
  security?: readonly string[];
}

/**
 * What the answer is compared with: the recorded step of a replayed exchange, or for a generated case one
 * standing in for it (its recorded status is the live one: a generated case has no recording).
 */
export interface ExchangeStep {
  /** `<scenario>/<step>` (or `generated/<operation>/<kind>#<n>`): where findings are reported. */
  id: string;
  scenario: string;
  name: string;
  index: number;
  operation: ExchangeOperation;
  recorded: { status: number; contentType?: string; body: unknown };
}

/** A cross-call check declared in a scenario's bindings (`consistency:`). */
export interface ConsistencyCheck {
  step: string;
  pointer: string;
  /** The binding (capture or input) whose live value the response must carry at `pointer`. */
  equals: string;
  description?: string;
}

/** A generated request as the rules see it. */
export interface GeneratedCase {
  kind: 'valid' | 'invalid' | 'security';
  /** What makes it invalid, or which credential variant it is. */
  label: string;
  /** `accepted`: valid by the spec, must not be refused as invalid; a status: it must be refused. */
  expect: 'accepted' | 400 | 401 | 413 | 415;
  /** It names ids the target was not seen to hold: a documented 404 is a correct answer. */
  unknownIds: boolean;
  /** The broken constraint is designed here, not stated by the platform: a difference is advice. */
  designed: boolean;
}

/** One exchange: the observation every REST rule judges. */
export interface Exchange {
  step: ExchangeStep;
  request: OutgoingRequest;
  live: LiveResponse;
  /** Live values of the scenario's inputs and captures known when the step ran (none for a generated case). */
  values: Map<string, string>;
  /** Cross-call checks declared for this step in the bindings. */
  consistency: ConsistencyCheck[];
  /** Set for a request of the generative phase: what it is and what the contract requires of it. */
  generated?: GeneratedCase;
  /**
   * Set for an exchange observed in traffic (the validating proxy, `certify --from-har`): nobody recorded
   * or generated it, so there is nothing to compare it with; `step.recorded` repeats the live answer.
   */
  observed?: true;
}

/**
 * Which exchanges a REST rule is handed besides every replayed one (every rule sees those):
 * `replayed` no others (it compares the answer with the recording, which nothing else has); `generated`
 * the generated cases too (it judges what a generated case requires: skipped on the others); `all` the
 * generated cases and the exchanges observed in traffic too (it judges the answer against the contract
 * alone: the stateless rules that the validating proxy and `certify --from-har` run).
 */
export type AppliesTo = 'replayed' | 'generated' | 'all';

/** A REST rule: judges one Exchange, and says which sources of exchanges are its to judge. */
export type RestRule = Rule<Exchange> & { appliesTo: AppliesTo };

const appliesTo = (rule: Rule<Exchange>): AppliesTo => (rule as Partial<RestRule>).appliesTo ?? 'replayed';

/** Whether the rule judges generated cases (a rule that does not say judges replayed exchanges only). */
export function judgesGenerated(rule: Rule<Exchange>): boolean {
  return appliesTo(rule) !== 'replayed';
}

/** Whether the rule judges an exchange observed in traffic: it needs neither a recording nor a generated case. */
export function judgesTraffic(rule: Rule<Exchange>): boolean {
  return appliesTo(rule) === 'all';
}
