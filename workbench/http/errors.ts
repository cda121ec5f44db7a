// The one error writer of the tools. Handlers decide a failure as a value (`fail(status, code, message,
// details, headers)`, or a thrown MockHttpError); only this file turns it into bytes: the contract's
// `{ success: false, message, content: { error: { code, details } } }` with its content type and length,
// as a fetch Response (`errorResponse`; the node:http adapter writes the same bytes on a raw socket before
// HTTP parsing, `refuseSocket` of adapters/node-http.ts, through `envelopeOf`). The contract routes,
// /__simulator, the back office, /docs, parser refusals and the recording proxy all answer through here,
// so a field every error carries (a request id, say) is added in `envelopeOf` alone. No Node module.
// test/workbench/error-writer.test.ts fails when another file builds an envelope.
import { errorEnvelope, type ErrorCode, type ErrorEnvelope, type ErrorItem, type ErrorLocation } from 'storefront-contract/contract';
import { respond, type Exchange } from '../engine/exchange.js';
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
 * A JSON answer as a Response: its content type and byte length, the exchange's headers under `headers`,
 * the body handed to the console's log when it records this request. `x` is undefined for an answer
 * outside any request (the recording proxy's).
 */
export function jsonResponse(x: Exchange | undefined, status: number, body: string | Uint8Array, headers: Record<string, string> = {}): Response {
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (x) captureBody(x, status, bytes); // the console's request log, when it records this request
  return respond(x, status, { ...headers, 'content-type': JSON_CONTENT_TYPE, 'content-length': String(bytes.length) }, bytes);
}

/** An error answer (with its headers, e.g. Allow, Retry-After, WWW-Authenticate) as the envelope. */
export function errorResponse(x: Exchange | undefined, reply: ErrorReply | MockHttpError): Response {
  const r = reply instanceof MockHttpError ? reply.reply : reply;
  return jsonResponse(x, r.status, JSON.stringify(envelopeOf(r.error)), r.headers);
}

/** A handler's answer, success or failure; `headers` are added to the reply's own (the reply's win). */
export function replyResponse(x: Exchange | undefined, reply: { status: number; body?: unknown; error?: ErrorFields; headers?: Record<string, string> }, headers: Record<string, string> = {}): Response {
  if (isErrorReply(reply)) return errorResponse(x, { ...reply, headers: { ...headers, ...(reply.headers ?? {}) } });
  return jsonResponse(x, reply.status, Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body), { ...headers, ...(reply.headers ?? {}) });
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
