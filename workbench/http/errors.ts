// The contract's ErrorEnvelope and the helpers that send it. Every failure the mock produces goes
// through here, so clients always get `{ success: false, message, content: { error } }` and never
// Prism's problem+json or a stack trace.
import type { ServerResponse } from 'node:http';
import { errorEnvelope, type ErrorCode, type ErrorEnvelope, type ErrorItem, type ErrorLocation } from 'storefront-contract/contract';

export type { ErrorCode, ErrorEnvelope, ErrorItem, ErrorLocation };

/** A failure decided by the front, carried to the one place that writes it. */
export class MockHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorItem[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export { errorEnvelope as envelope };

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Writes a JSON answer. `endWhen`, when given, decides when the response ends (after the answer is
 * written): a 413 ends only once the rest of the request body is drained.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
  endWhen?: (end: () => void) => void,
): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...headers, 'content-type': JSON_CONTENT_TYPE, 'content-length': String(bytes.length) });
  if (!endWhen) {
    res.end(bytes);
    return;
  }
  res.write(bytes);
  endWhen(() => res.end());
}

export function sendError(res: ServerResponse, error: MockHttpError, endWhen?: (end: () => void) => void): void {
  sendJson(res, error.status, JSON.stringify(errorEnvelope(error.code, error.message, error.details)), error.headers, endWhen);
}

export function sendEnvelope(res: ServerResponse, status: number, code: ErrorCode, message: string, details: ErrorItem[] = []): void {
  sendError(res, new MockHttpError(status, code, message, details));
}

/** One readable sentence from the offending inputs: `query parameter 'page' must be >= 1`. */
export function describeItems(items: ErrorItem[]): string {
  return items
    .map((item) => {
      const where = item.location === 'body' ? 'body field' : item.location === 'header' ? 'header' : `${item.location} parameter`;
      return `${where} '${item.name}' ${item.message}`;
    })
    .join('; ');
}
