// Answers of the simulator's operations as plain values (status + body), so the same logic serves the
// HTTP routes, the in-process API and the tests. Failures use the contract's ErrorEnvelope with the Admin
// API's codes (spec/openapi/admin.yaml description).
import { errorEnvelope, successEnvelope, type ErrorCode, type ErrorEnvelope, type ErrorItem, type SuccessEnvelope } from 'storefront-contract/contract';

import type { Reply } from '../http/extension.js';

export type { ErrorItem };

export type { Reply };

export function fail(status: number, code: ErrorCode, message: string, details: ErrorItem[] = [], headers?: Record<string, string>): Reply<ErrorEnvelope> {
  return { status, body: errorEnvelope(code, message, details), headers };
}

export function ok<T>(status: number, message: string, content: T): Reply<SuccessEnvelope<T>> {
  return { status, body: successEnvelope(message, content) };
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
