// Finding and running a precompiled validator in a module of them (export names
// `<operationId>_request`, `<operationId>_<status>`). Shared by the synchronous API, where one
// module holds every operation, and the per-operation modules the typed client loads.
import type { RawValidator, ValidatorModule } from '../../generated/validators/raw-validator.js';
import { formatErrors, type ValidationIssue } from './format-errors.js';

export type ApiName = 'storefront' | 'admin';
export type ValidationResult = { valid: true } | { valid: false; errors: ValidationIssue[] };

/** The validator of a response, by exact status, then its `NXX` range, then `default`. */
export function pickResponse(mod: ValidatorModule, operationId: string, status: number | string): RawValidator | undefined {
  const code = String(status);
  return mod[`${operationId}_${code}`] ?? mod[`${operationId}_${code[0]}XX`] ?? mod[`${operationId}_default`];
}

export function pickRequest(mod: ValidatorModule, operationId: string): RawValidator | undefined {
  return mod[`${operationId}_request`];
}

export function run(validator: RawValidator, data: unknown): ValidationResult {
  return validator(data) ? { valid: true } : { valid: false, errors: formatErrors(validator.errors, data) };
}

export function checkResponse(mod: ValidatorModule, operationId: string, status: number | string, body: unknown): ValidationResult {
  const validator = pickResponse(mod, operationId, status);
  if (!validator) {
    return { valid: false, errors: [{ path: '/', message: `status ${status} is not a documented response of ${operationId}` }] };
  }
  return run(validator, body);
}

export function checkRequestBody(mod: ValidatorModule, operationId: string, body: unknown): ValidationResult {
  const validator = pickRequest(mod, operationId);
  if (!validator) return { valid: false, errors: [{ path: '/', message: `${operationId} takes no JSON request body` }] };
  return run(validator, body);
}
