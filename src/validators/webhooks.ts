// Webhook deliveries against the message schema of their `event`. All messages live in one
// module, loaded with this one: a receiver takes any event, the messages share their envelope and
// models, and the receiver kit validates synchronously on every delivery.
import { eventValidators, webhookEnvelope } from '../../generated/validators/webhooks.js';
import type { ValidationIssue } from './format-errors.js';
import { run } from './lookup.js';

export type WebhookValidationResult = { valid: true; event: string } | { valid: false; errors: ValidationIssue[] };

/** Validates a delivered body (WebhookEnvelope) against the message schema of its `event`. */
export function validateWebhookDelivery(body: unknown): WebhookValidationResult {
  const event = body && typeof body === 'object' ? (body as { event?: unknown }).event : undefined;
  if (typeof event !== 'string') {
    return { valid: false, errors: [{ path: '/event', message: 'must be a string naming the event', expected: 'string', got: typeof event }] };
  }
  const validator = Object.hasOwn(eventValidators, event) ? eventValidators[event] : undefined;
  if (!validator) {
    return { valid: false, errors: [{ path: '/event', message: `unknown event "${event}" (not in the AsyncAPI catalog)` }] };
  }
  const result = run(validator, body);
  return result.valid ? { valid: true, event } : result;
}

/** Event names of the catalog, in order. */
export const webhookEventNames: readonly string[] = Object.keys(eventValidators);

/** True when `event` names a message of the catalog this library was generated from. */
export function isKnownWebhookEvent(event: string): boolean {
  return Object.hasOwn(eventValidators, event);
}

/**
 * Validates a delivered body against the envelope every event shares (WebhookEnvelope), whatever its
 * `event`: what the receiver kit checks a delivery of an event outside its catalog against.
 */
export function validateWebhookEnvelope(body: unknown): WebhookValidationResult {
  const result = run(webhookEnvelope, body);
  return result.valid ? { valid: true, event: (body as { event: string }).event } : result;
}
