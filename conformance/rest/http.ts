// Sending one request to the target with undici (keep-alive pool sized to the concurrency) and
// reading the answer as the rules need it.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Agent, request } from 'undici';
import type { LiveResponse, OutgoingRequest } from '../rules/observations/rest.js';

export function createDispatcher(connections: number): Agent {
  return new Agent({ connections, keepAliveTimeout: 10_000, headersTimeout: 30_000, bodyTimeout: 30_000 });
}

/**
 * Asked on every request, as HTTP clients do: a server may compress what it sends (HTTP content coding,
 * RFC 9110 8.4), which the contract leaves open, so the certifier must read compressed answers too.
 */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

// A hostile server's compressed answer cannot grow past this (zlib stops and throws).
const MAX_DECODED_BYTES = 64 * 1024 * 1024;
type Limit = { maxOutputLength: number };
const DECODERS: Record<string, (b: Buffer, limit: Limit) => Buffer> = {
  gzip: (b, limit) => gunzipSync(b, limit),
  'x-gzip': (b, limit) => gunzipSync(b, limit),
  deflate: (b, limit) => inflateSync(b, limit),
  br: (b, limit) => brotliDecompressSync(b, limit),
};

/**
 * The body bytes with the content codings undone (last applied first), or why they cannot be; `tooLarge`
 * when decoding would pass `maxBytes` (zlib stops there).
 */
export function decodeBody(raw: Buffer, contentEncoding: string | undefined, maxBytes = MAX_DECODED_BYTES): { bytes: Buffer; error?: string; tooLarge?: boolean } {
  const codings = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  let bytes = raw;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) return { bytes, error: `Content-Encoding ${coding} was not asked for (Accept-Encoding: ${ACCEPT_ENCODING})` };
    try {
      bytes = decode(bytes, { maxOutputLength: Math.min(maxBytes, MAX_DECODED_BYTES) });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { bytes, error: `the body decoded is over ${maxBytes} bytes`, tooLarge: true };
      return { bytes, error: `the body is not valid ${coding} (${(e as Error).message})` };
    }
  }
  return { bytes };
}

/** Methods a client may send again by itself when the connection fails before any answer (RFC 9110 9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Connection failures with no answer: most often a kept-alive socket the server closed as the request went out. */
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

export async function send(req: OutgoingRequest, dispatcher: Agent, parse: boolean): Promise<LiveResponse & { text: string }> {
  let started = performance.now();
  const options = { method: req.method as 'GET', headers: { 'accept-encoding': ACCEPT_ENCODING, ...req.headers }, body: req.body, dispatcher };
  let reply: Awaited<ReturnType<typeof request>>;
  try {
    reply = await request(req.url, options);
  } catch (error) {
    // The race every keep-alive client meets (RFC 9112 9.3.1): the server closes an idle connection as the
    // next request goes out on it. An idempotent request is sent once more, on a new connection, as
    // browsers and other HTTP clients do; a second failure is the transport failure reported.
    if (!IDEMPOTENT.has(req.method.toUpperCase()) || !RESET.has((error as { code?: string }).code ?? '')) throw error;
    started = performance.now();
    reply = await request(req.url, { ...options, reset: true });
  }
  const raw = Buffer.from(await reply.body.arrayBuffer());
  const durationMs = performance.now() - started;
  const ce = reply.headers['content-encoding'];
  const decoded = decodeBody(raw, Array.isArray(ce) ? ce.join(', ') : ce);
  const text = decoded.bytes.toString('utf8');
  const ct = reply.headers['content-type'];
  const contentType = Array.isArray(ct) ? ct[0] : ct;
  let body: unknown;
  let parseError: string | undefined = decoded.error;
  if (parse && !parseError) {
    try {
      body = text === '' ? undefined : JSON.parse(text);
      if (text === '') parseError = 'empty body';
    } catch (e) {
      parseError = (e as Error).message;
    }
  }
  return { status: reply.statusCode, contentType, body, parseError, durationMs, text };
}

/** A one-line reason for a transport failure (no stack). */
export function transportError(error: unknown): string {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.cause?.code ?? e?.code;
  const message = e?.cause?.message ?? e?.message ?? String(error);
  return code ? `${code}: ${message}` : message;
}
