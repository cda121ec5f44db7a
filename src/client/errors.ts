// Errors the typed clients raise on every call. The API's own failures keep the envelope, typed: its
// `message`, the machine-readable `content.error.code` (the known codes, open to new ones) and `details`.
// ContractViolationError, raised only with validation on, is in contract-violation.ts so that it loads
// with the validation code.
import { isErrorEnvelope, type ErrorDetail, type ErrorEnvelope, type ErrorEnvelopeLike, type ErrorItem } from '../contract/envelope.js';

export type { ErrorEnvelopeLike };

/**
 * The server answered with a failure (any non-2XX status). `body` is the contract's envelope when the
 * answer was one (every failure of both APIs is); `raw` is the body as received, for the answers that are
 * not (a proxy's HTML page, a server outside the contract).
 */
export class StorefrontApiError extends Error {
  readonly name = 'StorefrontApiError';
  readonly body: ErrorEnvelope | undefined;
  constructor(
    readonly status: number,
    readonly operationId: string,
    readonly raw: unknown,
  ) {
    const message = (raw as ErrorEnvelopeLike | null | undefined)?.message;
    super(typeof message === 'string' ? message : `HTTP ${status} from ${operationId}`);
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
