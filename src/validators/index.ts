// storefront-contract/validators: the precompiled validators of generated/validators behind a small
// API with readable errors. No schema is compiled at run time.
import * as storefront from '../../generated/validators/storefront.js';
import * as admin from '../../generated/validators/admin.js';
import * as webhooks from '../../generated/validators/webhooks.js';
import type { RawValidator } from '../../generated/validators/raw-validator.js';
import { webhookEvents } from '../../generated/webhooks/catalog.js';
import { formatErrors, issuesToString, type ValidationIssue } from './format-errors.js';

export { formatErrors, issuesToString, type ValidationIssue };
export type { RawValidator };

export type ApiName = 'storefront' | 'admin';
export type ValidationResult = { valid: true } | { valid: false; errors: ValidationIssue[] };

const modules: Record<ApiName, Record<string, RawValidator>> = {
  storefront: storefront as unknown as Record<string, RawValidator>,
  admin: admin as unknown as Record<string, RawValidator>,
};
const webhookValidators = webhooks as unknown as Record<string, RawValidator>;
const validatorByEvent = new Map<string, string>(webhookEvents.map((e) => [e.event, e.validator]));

function run(validator: RawValidator, data: unknown): ValidationResult {
  return validator(data) ? { valid: true } : { valid: false, errors: formatErrors(validator.errors, data) };
}

/** The validator of a response, by exact status, then its `NXX` range, then `default`. */
export function responseValidator(api: ApiName, operationId: string, status: number | string): RawValidator | undefined {
  const code = String(status);
  const mod = modules[api];
  return mod[`${operationId}_${code}`] ?? mod[`${operationId}_${code[0]}XX`] ?? mod[`${operationId}_default`];
}

export function validateResponse(api: ApiName, operationId: string, status: number | string, body: unknown): ValidationResult {
  const validator = responseValidator(api, operationId, status);
  if (!validator) {
    return { valid: false, errors: [{ path: '/', message: `status ${status} is not a documented response of ${operationId}` }] };
  }
  return run(validator, body);
}

export function validateRequestBody(api: ApiName, operationId: string, body: unknown): ValidationResult {
  const validator = modules[api][`${operationId}_request`];
  if (!validator) return { valid: false, errors: [{ path: '/', message: `${operationId} takes no JSON request body` }] };
  return run(validator, body);
}

export type WebhookValidationResult = { valid: true; event: string } | { valid: false; errors: ValidationIssue[] };

/** Validates a delivered body (WebhookEnvelope) against the message schema of its `event`. */
export function validateWebhookDelivery(body: unknown): WebhookValidationResult {
  const event = body && typeof body === 'object' ? (body as { event?: unknown }).event : undefined;
  if (typeof event !== 'string') {
    return { valid: false, errors: [{ path: '/event', message: 'must be a string naming the event', expected: 'string', got: typeof event }] };
  }
  const name = validatorByEvent.get(event);
  if (!name) {
    return { valid: false, errors: [{ path: '/event', message: `unknown event "${event}" (not in the AsyncAPI catalog)` }] };
  }
  const result = run(webhookValidators[name], body);
  return result.valid ? { valid: true, event } : result;
}

/** Event names of the catalog, in order. */
export const webhookEventNames: readonly string[] = webhookEvents.map((e) => e.event);
