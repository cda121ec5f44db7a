// Errors the typed clients raise. The API's own failures keep the envelope, typed: its `message`, the
// machine-readable `content.error.code` (the known codes, open to new ones) and `details`. The clients
// load this module when they throw (`errors()` in middleware.ts), so in a bundled app it is a chunk that
// loads with the first such failure, or with the app when the app imports a class itself.
// ContractViolationError, raised only with validation on, is here too: the validation code loads this
// module as the clients do (one chunk of error classes, not a copy per chunk).
//
// Fields set by a constructor are `declare`d: with class fields as the language defines them (ES2022),
// a plain declaration is also emitted as a field definition, bytes that every app would load for nothing.
import { isErrorEnvelope, type ErrorDetail, type ErrorEnvelope, type ErrorEnvelopeLike, type ErrorItem } from '../contract/envelope.js';
import type { ValidationIssue } from '../validators/format-errors.js';

export type { ErrorEnvelopeLike };

/**
 * The server answered with a failure (any non-2XX status). `body` is the contract's envelope when the
 * answer was one (every failure of both APIs is); `raw` is the body as received, for the answers that are
 * not (a proxy's HTML page, a server outside the contract).
 */
export class StorefrontApiError extends Error {
  readonly name = 'StorefrontApiError';
  declare readonly status: number;
  declare readonly operationId: string;
  declare readonly raw: unknown;
  declare readonly body: ErrorEnvelope | undefined;
  constructor(status: number, operationId: string, raw: unknown) {
    const message = (raw as ErrorEnvelopeLike | null | undefined)?.message;
    super(typeof message === 'string' ? message : `HTTP ${status} from ${operationId}`);
    this.status = status;
    this.operationId = operationId;
    this.raw = raw;
    this.body = isErrorEnvelope(raw) ? raw : undefined;
  }
  /** `content.error.code`: one of the contract's `ErrorCode`s, or one this version does not know. */
  get code(): ErrorDetail['code'] | undefined {
    return this.body?.content.error.code;
  }
  /** `content.error.details`: one item per offending input (empty when none, or when the body was no envelope). */
  get details(): ErrorItem[] {
    return this.body?.content.error.details ?? [];
  }
}

/** A request needed a credential the client was not given. */
export class MissingCredentialsError extends Error {
  readonly name = 'MissingCredentialsError';
}

/** In validation mode, a response did not match the contract. */
export class ContractViolationError extends Error {
  readonly name = 'ContractViolationError';
  declare readonly operationId: string;
  declare readonly status: number;
  declare readonly issues: ValidationIssue[];
  constructor(operationId: string, status: number, issues: ValidationIssue[]) {
    super(`${operationId} ${status}: response violates the contract: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    this.operationId = operationId;
    this.status = status;
    this.issues = issues;
  }
}
