// What a REST rule sees (one replayed exchange) and what the replay produces per exchange.
import type { OutgoingRequest } from './bindings.js';
import type { ConsistencyCheck, Step } from './load.js';
import type { Severity } from '../rules/model.js';

export interface LiveResponse {
  status: number;
  contentType?: string;
  /** Parsed JSON body, or undefined when the body is not JSON (see `parseError`). */
  body: unknown;
  parseError?: string;
  durationMs: number;
}

/** One replayed exchange: the observation every REST rule judges. */
export interface Exchange {
  step: Step;
  request: OutgoingRequest;
  live: LiveResponse;
  /** Live values of the scenario's inputs and captures known when the step ran. */
  values: Map<string, string>;
  /** Cross-call checks declared for this step in the bindings. */
  consistency: ConsistencyCheck[];
  /** Set for a request of the generative phase: what it is and what the contract requires of it. */
  generated?: GeneratedCase;
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
}
