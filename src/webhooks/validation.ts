// The one place the receiver kit meets the generated contract: the precompiled delivery validator
// (src/validators over generated/validators) and the event types (generated/types/webhooks.ts).
// Everything else in src/webhooks imports them from here, so a change in the generator's interface is
// a change to this file only.
import type { ValidationIssue } from '../validators/format-errors.js';
import { isKnownWebhookEvent, validateWebhookDelivery, validateWebhookEnvelope, type WebhookValidationResult } from '../validators/webhooks.js';

export { isKnownWebhookEvent, validateWebhookEnvelope };

export type { WebhookEvent, WebhookEventName, WebhookEventOf } from '../../generated/types/webhooks.js';

export type { ValidationIssue };

export type DeliveryValidation = WebhookValidationResult;

/** Validates a parsed delivery body: the envelope, then the event's own `payload.properties` by `event`. */
export type DeliveryValidator = (body: unknown) => DeliveryValidation;

/** The validator to use: the one given (tests, custom rules), else the precompiled one of the contract. */
export function resolveValidator(given?: DeliveryValidator): DeliveryValidator {
  return given ?? validateWebhookDelivery;
}

/** Runs a validator and turns a throw into a validation failure, so a validator bug cannot crash a request. */
export function runValidator(validate: DeliveryValidator, body: unknown): DeliveryValidation {
  try {
    return validate(body);
  } catch (error) {
    return { valid: false, errors: [{ path: '', message: `validator failed: ${(error as Error)?.message ?? String(error)}` }] };
  }
}

/**
 * A verified delivery of an event outside the catalog this kit was generated from (a newer version of
 * the contract): the shared envelope, checked; its `payload.properties` unchecked.
 */
export interface UnknownWebhookEvent {
  event: string;
  event_id: string;
  delivery_id: string;
  timestamp: string;
  is_test: boolean;
  payload: { event: string; event_id: string; properties?: Record<string, unknown>; [key: string]: unknown };
}
