// Reading JSON request bodies and writing Replies for the simulator's route hooks. Bodies are read with
// the mock's streaming size limit (workbench/http/body.ts); failures become the contract's 413/415/400 answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http/body.js';
import { MockHttpError, sendJson } from '../http/errors.js';
import { fail, type Reply } from './replies.js';

export type BodyResult = { ok: true; body: unknown } | { ok: false; reply: Reply };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function announcesBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  if (len !== undefined) return len.trim() !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

/** Reads a JSON body; `body` is undefined when none was sent (the caller decides whether that is fine). */
export async function readJson(req: IncomingMessage, limit: number): Promise<BodyResult> {
  if (!announcesBody(req)) return { ok: true, body: undefined };
  const [essence, ...params] = String(req.headers['content-type'] ?? '').split(';');
  const type = essence.trim().toLowerCase();
  const charset = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('charset='));
  let bytes: Buffer;
  try {
    bytes = await readBody(req, limit);
  } catch (e) {
    if (e instanceof MockHttpError) return { ok: false, reply: fail(e.status, e.code as 'payload_too_large', e.message, e.details, e.headers) };
    throw e;
  }
  if (type !== 'application/json' || (charset && !/^charset="?utf-8"?$/.test(charset))) {
    return {
      ok: false,
      reply: fail(415, 'unsupported_media_type', `Content-Type '${type || '(none)'}' is not supported; send application/json (UTF-8).`, [
        { location: 'header', name: 'Content-Type', message: 'must be application/json' },
      ]),
    };
  }
  if (bytes.length === 0) return { ok: true, body: undefined };
  try {
    return { ok: true, body: JSON.parse(utf8.decode(bytes)) };
  } catch (e) {
    const detail = (e as Error).message.slice(0, 200);
    return { ok: false, reply: fail(400, 'malformed_json', `Request body is not valid JSON: ${detail}.`, [{ location: 'body', name: '(body)', message: `is not valid JSON: ${detail}` }]) };
  }
}

/** Drains a body the operation does not take, within the limit, so keep-alive connections stay usable. */
export async function discardBody(req: IncomingMessage, limit: number): Promise<Reply | undefined> {
  if (!announcesBody(req)) return undefined;
  try {
    await readBody(req, limit);
    return undefined;
  } catch (e) {
    if (e instanceof MockHttpError) return fail(e.status, e.code as 'payload_too_large', e.message, e.details, e.headers);
    throw e;
  }
}

export function sendReply(res: ServerResponse, reply: Reply, headers: Record<string, string> = {}): void {
  sendJson(res, reply.status, JSON.stringify(reply.body), { ...headers, ...(reply.headers ?? {}) });
}
