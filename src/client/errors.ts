// Errors the typed clients raise on every call. The API's own failures keep the envelope's `message`
// and the machine-readable `content.error.code`. ContractViolationError, raised only with validation
// on, is in contract-violation.ts so that it loads with the validation code.
import type { ErrorEnvelopeLike } from '../contract/envelope.js';

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
