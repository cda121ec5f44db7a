// The one body reader of the workbench: a size limit enforced while the request's body streams (never
// buffering more than the limit; a Content-Length above it is refused before anything is read), the
// content type checked against what the route accepts, JSON parsed strictly as UTF-8. Contract operations
// (the pipeline) and the routes outside the contract (control-routes.ts) both read through here. Each
// failure is a MockHttpError the error writer sends as the 413/415/400 envelope. What is left of a body
// the engine stopped reading (after a 413) is the transport's to drain: adapters/node-http.ts reads it off
// the socket (bounded) before the 413 ends, so the client sees the answer instead of a reset.
import type { Exchange } from '../engine/exchange.js';
import { MockHttpError } from './errors.js';
import { MAX_JSON_DEPTH, inspectUserJson, tooDeep } from './object-paths.js';
import type { OperationModel } from '../mock/spec-model.js';
import { invalid } from '../mock/validate-request.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export function tooLarge(limit: number): MockHttpError {
  return new MockHttpError(
    413,
    'payload_too_large',
    `Request body is larger than ${limit} bytes.`,
    [{ location: 'body', name: '(body)', message: `must be at most ${limit} bytes` }],
    { connection: 'close' },
  );
}

/**
 * True when the request announces a body: a length above zero or chunked encoding, or (a fetch Request
 * that never crossed a wire, without either header) a body stream.
 */
export function hasBody(x: Exchange): boolean {
  const len = x.headers['content-length'];
  if (len !== undefined) return len !== '0';
  return x.headers['transfer-encoding'] !== undefined || x.request.body !== null;
}

/** True when the headers say nothing of a body's length (a fetch Request in process): an empty stream then means no body. */
function lengthUnsaid(x: Exchange): boolean {
  return x.headers['content-length'] === undefined && x.headers['transfer-encoding'] === undefined;
}

/** Rejects at once when Content-Length already says too much; nothing is read. */
export function checkDeclaredLength(x: Exchange, limit: number): void {
  const len = x.headers['content-length'];
  if (len !== undefined && Number(len) > limit) throw tooLarge(limit);
}

/** The body, read off its stream up to `limit` bytes (a 413 past it, without reading further). */
export async function readBody(x: Exchange, limit: number): Promise<Buffer> {
  const stream = x.request.body;
  if (stream === null || x.request.bodyUsed) return Buffer.alloc(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw tooLarge(limit);
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof MockHttpError) throw err;
    throw new MockHttpError(400, 'invalid_body', `Request body could not be read: ${(err as Error)?.message ?? err}.`);
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1) {
    const only = chunks[0];
    return Buffer.isBuffer(only) ? only : Buffer.from(only.buffer, only.byteOffset, only.byteLength);
  }
  return Buffer.concat(chunks, size);
}

/** The body when one was sent: undefined when none was announced, or (headers silent) its stream was empty. */
export async function readSentBody(x: Exchange, limit: number): Promise<Buffer | undefined> {
  if (!hasBody(x)) return undefined;
  const bytes = await readBody(x, limit);
  return bytes.length === 0 && lengthUnsaid(x) ? undefined : bytes;
}

/** The media type the operation accepts that matches the request's Content-Type, or a 415. */
export function matchContentType(op: OperationModel, header: string | undefined): string {
  return matchMediaType(Object.keys(op.requestBody?.content ?? {}), header);
}

/** The accepted media type that matches the request's Content-Type, or a 415. */
export function matchMediaType(accepted: readonly string[], header: string | undefined): string {
  const [essenceRaw, ...params] = (header ?? '').split(';');
  const essence = essenceRaw.trim().toLowerCase();
  const charset = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('charset='));
  const match = accepted.find((m) => {
    const want = m.toLowerCase();
    if (want === essence || want === '*/*') return true;
    return want.endsWith('/*') && essence.startsWith(want.slice(0, -1));
  });
  const list = accepted.join(', ') || 'no body';
  if (!essence) {
    throw new MockHttpError(415, 'unsupported_media_type', `Content-Type header is missing; this operation accepts ${list}.`, [
      { location: 'header', name: 'Content-Type', message: `is required and must be ${list}` },
    ]);
  }
  if (!match) {
    throw new MockHttpError(415, 'unsupported_media_type', `Content-Type '${essence.slice(0, 100)}' is not supported; this operation accepts ${list}.`, [
      { location: 'header', name: 'Content-Type', message: `must be ${list}` },
    ]);
  }
  if (charset && !/^charset="?utf-8"?$/.test(charset)) {
    throw new MockHttpError(415, 'unsupported_media_type', `Content-Type charset '${charset.slice(8, 60)}' is not supported; send UTF-8.`, [
      { location: 'header', name: 'Content-Type', message: 'charset must be utf-8' },
    ]);
  }
  return match;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a JSON body, naming the position of the first error. */
export function parseJsonBody(op: OperationModel, bytes: Buffer): unknown {
  return checkDepth(
    decodeJson(bytes, (message, item) => invalid(op, 'malformed_json', message, [item])),
    (message, item) => invalid(op, 'invalid_body', message, [item]),
  );
}

/**
 * JSON nested past MAX_JSON_DEPTH is refused here, once for every route (register SF-038): JSON.parse
 * takes any depth, but the walks, merges and serializers after it would not.
 */
function checkDepth(parsed: unknown, refuse: (message: string, item: { location: 'body'; name: string; message: string }) => MockHttpError): unknown {
  const problem = inspectUserJson(parsed, MAX_JSON_DEPTH, 'depth-only');
  if (problem?.kind === 'too-deep') {
    const { message, item } = tooDeep(problem.path);
    throw refuse(message, item);
  }
  return parsed;
}

function decodeJson(bytes: Buffer, refuse: (message: string, item: { location: 'body'; name: string; message: string }) => MockHttpError): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw refuse('Request body is not valid UTF-8.', { location: 'body', name: '(body)', message: 'is not valid UTF-8' });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    const detail = (e as Error).message.slice(0, 200);
    throw refuse(`Request body is not valid JSON: ${detail}.`, { location: 'body', name: '(body)', message: `is not valid JSON: ${detail}` });
  }
}

/** Largest body a route outside the contract (/__simulator) takes. */
export const CONTROL_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The body of a route outside the contract that takes a JSON object: within the limit (413), sent as
 * application/json in UTF-8 (415), valid JSON (400), an object without `__proto__`-like keys (400).
 */
export async function readJsonObject(x: Exchange, limit: number): Promise<Record<string, unknown>> {
  const objectRequired = () =>
    new MockHttpError(400, 'invalid_body', 'Send a JSON object (Content-Type: application/json).', [{ location: 'body', name: '(body)', message: 'must be a JSON object' }]);
  checkDeclaredLength(x, limit);
  if (!hasBody(x)) throw objectRequired();
  matchMediaType(['application/json'], x.headers['content-type']);
  const bytes = await readBody(x, limit);
  if (bytes.length === 0) throw objectRequired();
  const parsed = decodeJson(bytes, (message, item) => new MockHttpError(400, 'malformed_json', message, [item]));
  // One walk for both checks: the depth limit, then (in an object) the refused keys.
  const problem = inspectUserJson(parsed, MAX_JSON_DEPTH, 'check-keys');
  if (problem?.kind === 'too-deep') {
    const { message, item } = tooDeep(problem.path);
    throw new MockHttpError(400, 'invalid_body', message, [item]);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw objectRequired();
  if (problem?.kind === 'unsafe-key') {
    throw new MockHttpError(400, 'invalid_body', `Body field ${problem.path} is not an allowed property name.`, [{ location: 'body', name: problem.path, message: 'is not an allowed property name' }]);
  }
  return parsed as Record<string, unknown>;
}

/** Reads and drops a body the route does not take, within the limit, so keep-alive connections stay usable. */
export async function discardBody(x: Exchange, limit: number): Promise<void> {
  checkDeclaredLength(x, limit);
  if (hasBody(x)) await readBody(x, limit);
}
