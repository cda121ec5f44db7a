// What rules see and what the run produces.
import type { OutgoingRequest } from './bindings.js';
import type { ConsistencyCheck, Step } from './load.js';

export type Severity = 'error' | 'warn';

export interface LiveResponse {
  status: number;
  contentType?: string;
  /** Parsed JSON body, or undefined when the body is not JSON (see `parseError`). */
  body: unknown;
  parseError?: string;
  durationMs: number;
}

/** One replayed exchange, as the rules judge it. */
export interface Exchange {
  step: Step;
  request: OutgoingRequest;
  live: LiveResponse;
  /** Live values of the scenario's inputs and captures known when the step ran. */
  values: Map<string, string>;
  /** Cross-call checks declared for this step in the bindings. */
  consistency: ConsistencyCheck[];
}

export interface Rule {
  /** kebab-case, the file name in conformance/rules/. */
  id: string;
  severity: Severity;
  /** One line: what the rule requires. */
  summary: string;
  /** Problems found, one sentence each; empty when the exchange passes (or the rule does not apply). */
  check(exchange: Exchange): string[];
}

export interface Finding {
  rule: string;
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
  findings: Finding[];
  /** Set when the exchange was not sent (a capture it needs was missing) or the transport failed. */
  error?: string;
  /** False for steps run only to provide captures to `--only` operations. */
  judged: boolean;
}
