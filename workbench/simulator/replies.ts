// Answers of the simulator's operations as plain values (status + body), so the same logic serves the
// HTTP routes, the in-process API and the tests. Failures use the contract's ErrorEnvelope with the Admin
// API's codes (spec/openapi/admin.yaml description).
import type { ErrorItem } from '../http/errors.js';

export type { ErrorItem };

export type AdminErrorCode =
  | 'unauthorized'
  | 'not_found'
  | 'invalid_body'
  | 'malformed_json'
  | 'invalid_parameter'
  | 'invalid_url'
  | 'no_known_events'
  | 'event_not_subscribed'
  | 'webhook_limit_reached'
  | 'webhook_disabled'
  | 'delivery_in_progress'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'method_not_allowed';

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers?: Record<string, string>;
}

export interface ErrorBody {
  success: false;
  message: string;
  content: { error: { code: AdminErrorCode; details: ErrorItem[] } };
}

export function fail(status: number, code: AdminErrorCode, message: string, details: ErrorItem[] = [], headers?: Record<string, string>): Reply<ErrorBody> {
  return { status, body: { success: false, message, content: { error: { code, details } } }, headers };
}

export function ok<T>(status: number, message: string, content: T): Reply<{ success: true; message: string; content: T }> {
  return { status, body: { success: true, message, content } };
}

/** `/payload/properties/items/0/sku` -> `properties.items.0.sku` (the ErrorItem `name` style of the contract). */
export function dotted(pointer: string, dropPrefix = ''): string {
  const trimmed = pointer.startsWith(dropPrefix) ? pointer.slice(dropPrefix.length) : pointer;
  const name = trimmed
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  return name || '(body)';
}
