// The contract's response envelope, typed from the generated types so the spec is the only place its
// shape is written: `{ success, message, content }`, and on failure `content.error` with a code and one
// item per offending input.
import type { components } from '../../generated/types/storefront.js';

export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
export type ErrorItem = components['schemas']['ErrorItem'];
export type ErrorLocation = ErrorItem['location'];

/** The codes this project's servers send. Clients must tolerate others (the spec says so). */
export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'invalid_parameter'
  | 'invalid_body'
  | 'invalid_url'
  | 'malformed_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'expectation_failed'
  | 'no_known_events'
  | 'event_not_subscribed'
  | 'webhook_limit_reached'
  | 'webhook_disabled'
  | 'delivery_in_progress'
  | 'internal_error'
  | 'service_unavailable';

export interface SuccessEnvelope<T> {
  success: true;
  message: string;
  content: T;
}

export function errorEnvelope(code: ErrorCode, message: string, details: ErrorItem[] = []): ErrorEnvelope {
  return { success: false, message, content: { error: { code, details } } };
}

export function successEnvelope<T>(message: string, content: T): SuccessEnvelope<T> {
  return { success: true, message, content };
}

/** What a client can rely on in any failure body, whoever produced it. */
export interface ErrorEnvelopeLike {
  success?: boolean;
  message?: string;
  content?: { error?: { code?: string; details?: unknown[] } } | null;
}
