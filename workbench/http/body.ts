// The one body reader of the workbench: a size limit enforced while streaming (never buffering more
// than the limit), the content type checked against what the route accepts, JSON parsed strictly as
// UTF-8. Contract operations (front.ts) and the routes outside the contract (control-routes.ts) both
// read through here. Each failure is a MockHttpError the error writer sends as the 413/415/400 envelope.
import type { IncomingMessage } from 'node:http';
import { MockHttpError } from './errors.js';
import { MAX_JSON_DEPTH, inspectUserJson, tooDeep } from './object-paths.js';
import type { OperationModel } from '../mock/spec-model.js';
import { invalid } from '../mock/validate-request.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

// After a 413 the rest of an oversized body is read and dropped so the client sees the answer
// instead of a reset; past this many extra bytes the connection is cut.
const DISCARD_CAP = 16 * 1024 * 1024;

export function tooLarge(limit: number): MockHttpError {
  return new MockHttpError(
    413,
    'payload_too_large',
    `Request body is larger than ${limit} bytes.`,
    [{ location: 'body', name: '(body)', message: `must be at most ${limit} bytes` }],
    { connection: 'close' },
  );
}

/** True when the request announces a body (a length above zero or chunked encoding). */
export function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  if (len !== undefined) return len !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

/** Rejects at once when Content-Length already says too much; nothing is read. */
export function checkDeclaredLength(req: IncomingMessage, limit: number): void {
  const len = req.headers['content-length'];
  if (len !== undefined && Number(len) > limit) {
    discardRest(req);
    throw tooLarge(limit);
  }
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done = true;
        cleanup();
        discardRest(req);
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (done) return;
      done = true;
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      if (done) return;
      done = true;
      cleanup();
      reject(new MockHttpError(400, 'invalid_body', `Request body could not be read: ${err.message}.`));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

// The discarding is also bounded in time: a sender trickling an endless body is cut after this long.
const DISCARD_MS = 10_000;

function discardRest(req: IncomingMessage): void {
  let dropped = 0;
  const timer = setTimeout(() => req.socket.destroy(), DISCARD_MS);
  // Not a Node timer in the sandbox's browser build (../msw/browser.ts).
  timer.unref?.();
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_CAP) req.socket.destroy();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.on('error', () => {});
  req.resume();
}

/**
 * Ends `res` once the request body has been read off the wire (discardRest is draining it). Ending
 * earlier lets Node close the connection while the client is still writing, and the reset can reach the
 * client before the 413 does.
 */
export function endAfterBody(req: IncomingMessage, end: () => void): void {
  if (req.complete || req.destroyed) return end();
  let ended = false;
  const once = () => {
    if (!ended) {
      ended = true;
      end();
    }
  };
  req.once('end', once);
  req.once('close', once);
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
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const objectRequired = () =>
    new MockHttpError(400, 'invalid_body', 'Send a JSON object (Content-Type: application/json).', [{ location: 'body', name: '(body)', message: 'must be a JSON object' }]);
  checkDeclaredLength(req, limit);
  if (!hasBody(req)) throw objectRequired();
  matchMediaType(['application/json'], req.headers['content-type']);
  const bytes = await readBody(req, limit);
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
export async function discardBody(req: IncomingMessage, limit: number): Promise<void> {
  checkDeclaredLength(req, limit);
  if (hasBody(req)) await readBody(req, limit);
}
