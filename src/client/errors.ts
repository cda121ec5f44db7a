// Errors the typed clients raise. The API's own failures keep the envelope's `message` and the
// machine-readable `content.error.code`; contract violations carry the validator's issues.
import type { ErrorEnvelopeLike } from '../contract/envelope.js';
import type { ValidationIssue } from '../validators/format-errors.js';

export type { ErrorEnvelopeLike };

/** The server answered with `success: false` (any non-2XX status with the contract's envelope). */
export class StorefrontApiError extends Error {
  readonly name = 'StorefrontApiError';
  constructor(
    readonly status: number,
    readonly operationId: string,
    readonly body: ErrorEnvelopeLike | undefined,
  ) {
    super(body?.message ?? `HTTP ${status} from ${operationId}`);
  }
  get code(): string | undefined {
    return this.body?.content?.error?.code;
  }
  get details(): unknown[] {
    return this.body?.content?.error?.details ?? [];
  }
}

/** A request needed a credential the client was not given. */
export class MissingCredentialsError extends Error {
  readonly name = 'MissingCredentialsError';
}

/** In validation mode, a response did not match the contract. */
export class ContractViolationError extends Error {
  readonly name = 'ContractViolationError';
  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly issues: ValidationIssue[],
  ) {
    super(`${operationId} ${status}: response violates the contract: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
}
