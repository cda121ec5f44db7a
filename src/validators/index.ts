// storefront-contract/validators: the precompiled validators of generated/validators behind a small
// API with readable errors. No schema is compiled at run time.
//
// The functions here are synchronous, so this module loads every validator of both APIs and of the
// webhook messages when it is imported. Code that validates a few operations (the typed client)
// uses loadOperationValidators instead, which imports one operation's module on first use.
import * as storefront from '../../generated/validators/storefront.js';
import * as admin from '../../generated/validators/admin.js';
import type { RawValidator, ValidatorModule } from '../../generated/validators/raw-validator.js';
import { checkRequestBody, checkResponse, pickResponse, type ApiName, type ValidationResult } from './lookup.js';

export { describeError, formatErrors, issuesToString, relevantErrors, type ErrorDescription, type ValidationIssue } from './format-errors.js';
export { validateWebhookDelivery, validateWebhookEnvelope, isKnownWebhookEvent, webhookEventNames, type WebhookValidationResult } from './webhooks.js';
export { loadOperationValidators, loadedOperationValidators, type OperationValidators } from './operation-validators.js';
export type { RawValidator, ApiName, ValidationResult };

const modules: Record<ApiName, ValidatorModule> = { storefront, admin };

/** The validator of a response, by exact status, then its `NXX` range, then `default`. */
export function responseValidator(api: ApiName, operationId: string, status: number | string): RawValidator | undefined {
  return pickResponse(modules[api], operationId, status);
}

export function validateResponse(api: ApiName, operationId: string, status: number | string, body: unknown): ValidationResult {
  return checkResponse(modules[api], operationId, status, body);
}

export function validateRequestBody(api: ApiName, operationId: string, body: unknown): ValidationResult {
  return checkRequestBody(modules[api], operationId, body);
}
