// The contract's ErrorEnvelope and the helpers that send it. Every failure the mock produces goes
// through here, so clients always get `{ success: false, message, content: { error } }` and never
// Prism's problem+json or a stack trace.
import type { ServerResponse } from 'node:http';

export type ErrorLocation = 'path' | 'query' | 'header' | 'body';

export interface ErrorItem {
  location: ErrorLocation;
  name: string;
  message: string;
}

export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'invalid_parameter'
  | 'invalid_body'
  | 'malformed_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'internal_error';

export interface ErrorEnvelope {
  success: false;
  message: string;
  content: { error: { code: ErrorCode; details: ErrorItem[] } };
}

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

export function envelope(code: ErrorCode, message: string, details: ErrorItem[] = []): ErrorEnvelope {
  return { success: false, message, content: { error: { code, details } } };
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Writes a JSON body unless the response is already under way (then only ends it). */
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
  sendJson(res, error.status, JSON.stringify(envelope(error.code, error.message, error.details)), error.headers, endWhen);
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
