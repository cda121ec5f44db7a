// Answers of the simulator's operations as plain values (status + body), so the same logic serves the
// HTTP routes, the in-process API and the tests. Failures are `fail()` of the error writer
// (workbench/http/errors.ts), with the Admin API's codes (spec/openapi/admin.yaml description).
import { successEnvelope, unescapePointerSegment, type ErrorItem, type SuccessEnvelope } from 'storefront-contract/contract';
import type { BodyReply, Reply } from '../http/extension.js';

export type { ErrorItem };

export type { Reply };

export function ok<T>(status: number, message: string, content: T): BodyReply<SuccessEnvelope<T>> {
  return { status, body: successEnvelope(message, content) };
}

/** `/payload/properties/items/0/sku` -> `properties.items.0.sku` (the ErrorItem `name` style of the contract). */
export function dotted(pointer: string, dropPrefix = ''): string {
  const trimmed = pointer.startsWith(dropPrefix) ? pointer.slice(dropPrefix.length) : pointer;
  const name = trimmed
    .split('/')
    .filter(Boolean)
    .map(unescapePointerSegment)
    .join('.');
  return name || '(body)';
}
