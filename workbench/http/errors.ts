// The one error writer of the tools. Handlers decide a failure as a value (`fail(status, code, message,
// details, headers)`, or a thrown MockHttpError); only this file turns it into bytes: the contract's
// `{ success: false, message, content: { error: { code, details } } }` with its content type and length,
// on a response (`writeError`) or on a raw socket before HTTP parsing (`refuseSocket`). The contract
// routes, /__simulator, the back office, /docs, parser refusals and the recording proxy all answer
// through here, so a field every error carries (a request id, say) is added in `envelopeOf` alone.
// test/workbench/error-writer.test.ts fails when another file builds an envelope.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorEnvelope, type ErrorCode, type ErrorEnvelope, type ErrorItem, type ErrorLocation } from 'storefront-contract/contract';
import { captureBody } from './request-feed.js';

export type { ErrorCode, ErrorEnvelope, ErrorItem, ErrorLocation };

/**
 * Codes sent only outside the contract: the back office's state conflicts (409), the recording proxy's
 * unreachable upstream (502), and a status a fault rule injects that the contract has no code for (a 429 a
 * rule asked for with allow_undocumented). Clients tolerate codes they do not know (the spec says so).
 */
export type OutsideContractCode = 'conflict' | 'bad_gateway' | 'injected_fault';

export type ReplyCode = ErrorCode | OutsideContractCode;

/** What an error answer says, before it is written. */
export interface ErrorFields {
  code: ReplyCode;
  message: string;
  details: ErrorItem[];
}

/** A failure as a value: handlers return it, the writer writes it. `body` is never set (see Reply). */
export interface ErrorReply {
  status: number;
  error: ErrorFields;
  headers?: Record<string, string>;
  body?: undefined;
}

/** The failure a handler returns: `return fail(404, 'not_found', 'Cart c_1 not found.', [...])`. */
export function fail(status: number, code: ReplyCode, message: string, details: ErrorItem[] = [], headers?: Record<string, string>): ErrorReply {
  return { status, error: { code, message, details }, ...(headers ? { headers } : {}) };
}

export function isErrorReply(reply: { error?: unknown }): reply is ErrorReply {
  return reply.error !== undefined;
}

/** A failure decided deep in the pipeline (a check, the body reader), thrown to the one catch that writes it. */
export class MockHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ReplyCode,
    message: string,
    readonly details: ErrorItem[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get reply(): ErrorReply {
    return fail(this.status, this.code, this.message, this.details, this.headers);
  }
}

/**
 * The envelope of an error answer: the one place its fields are chosen. In-process callers (the
 * simulator's API, tests) read it too, so an answer over HTTP and in process say the same.
 */
export function envelopeOf(error: ErrorFields): ErrorEnvelope {
  return errorEnvelope(error.code as ErrorCode, error.message, error.details);
}

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
    // Stryker disable next-line ConditionalExpression: end() on a response already ended is a no-op in node:http (no error, nothing written); the check only says what is meant
    if (!res.writableEnded) res.end();
    return;
  }
  // Stryker disable next-line ConditionalExpression: Buffer.from of a Buffer is a copy of the same bytes (the "always convert" mutant); "never convert" is killed by the multi-byte length test
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  captureBody(res, status, bytes); // the console's request log, when it records this response
  res.writeHead(status, { ...headers, 'content-type': JSON_CONTENT_TYPE, 'content-length': String(bytes.length) });
  if (!endWhen) {
    res.end(bytes);
    return;
  }
  res.write(bytes);
  endWhen(() => res.end());
}

/** Writes an error answer (with its headers, e.g. Allow, Retry-After, WWW-Authenticate) as the envelope. */
export function writeError(res: ServerResponse, reply: ErrorReply | MockHttpError, endWhen?: (end: () => void) => void): void {
  const r = reply instanceof MockHttpError ? reply.reply : reply;
  sendJson(res, r.status, JSON.stringify(envelopeOf(r.error)), r.headers, endWhen);
}

/** A handler's answer, success or failure; `headers` are added to the reply's own (the reply's win). */
export function writeReply(res: ServerResponse, reply: { status: number; body?: unknown; error?: ErrorFields; headers?: Record<string, string> }, headers: Record<string, string> = {}): void {
  if (isErrorReply(reply)) return writeError(res, { ...reply, headers: { ...headers, ...(reply.headers ?? {}) } });
  sendJson(res, reply.status, Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body), { ...headers, ...(reply.headers ?? {}) });
}

/**
 * Answers on a socket node:http will not give a response object for (a request its parser refused, a
 * CONNECT): the status line, the reply's headers, the envelope, then the connection is closed.
 */
export function refuseSocket(socket: Socket, reply: ErrorReply): void {
  const body = JSON.stringify(envelopeOf(reply.error));
  const extra = Object.entries(reply.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}\r\n${extra}content-type: ${JSON_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
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
