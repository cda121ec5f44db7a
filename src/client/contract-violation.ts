// The error of a response that does not match the contract, carrying the validator's issues. Its
// own module, apart from errors.ts: only the validation code (loaded lazily) constructs it, so a
// bundled app loads it with that code, not with the client.
import type { ValidationIssue } from '../validators/format-errors.js';

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
