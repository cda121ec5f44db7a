// The contract's response envelope, typed from the generated types so the spec is the only place its
// shape is written: `{ success, message, content }`, and on failure `content.error` with a code and one
// item per offending input. `code` is read as the known codes while open to any other string: the spec
// asks clients to tolerate codes they do not know, and editors still offer the known ones.
import type { components } from '../../generated/types/storefront.js';

type GeneratedEnvelope = components['schemas']['ErrorEnvelope'];
type GeneratedContent = GeneratedEnvelope['content'];
type GeneratedDetail = GeneratedContent['error'];

export type ErrorItem = components['schemas']['ErrorItem'];
export type ErrorLocation = ErrorItem['location'];

/**
 * The contract's known error codes: every code its two OpenAPI documents name (the codes listed in their
 * descriptions and their error examples: test/contract/error-codes.test.ts holds it) and the few the
 * workbench's pipeline adds for HTTP-level refusals (405, 406, 417, 500, 503). A closed union: servers
 * send these. Clients read `ErrorDetail['code']`, which is open to codes a newer server may send.
 */
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

/**
 * `content.error` of a failure: `code` is one of the known codes or a code this version does not know
 * (`ErrorCode | (string & {})`: a comparison with any string compiles, and editors offer the known ones);
 * `details` has one item per offending input.
 */
export type ErrorDetail = { [K in keyof GeneratedDetail]: K extends 'code' ? ErrorCode | (string & {}) : GeneratedDetail[K] };

/** The body of every failure, from either API: `{ success: false, message, content: { error: { code, details } } }`. */
export type ErrorEnvelope = {
  [K in keyof GeneratedEnvelope]: K extends 'content' ? { [C in keyof GeneratedContent]: C extends 'error' ? ErrorDetail : GeneratedContent[C] } : GeneratedEnvelope[K];
};

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

/**
 * Whether a failure body is the contract's envelope (a proxy's HTML error page, or a server outside the
 * contract, sends something else): `success: false`, a `message`, and `content.error` with a string
 * `code` and a `details` array.
 */
export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  const b = body as ErrorEnvelopeLike | null | undefined;
  const error = b?.content?.error;
  return b?.success === false && typeof b.message === 'string' && typeof error?.code === 'string' && Array.isArray(error.details);
}
