// Plain node:http. The body is read here, with the size cap applied from Content-Length before reading
// and while streaming, so an oversized delivery is answered 413 without being buffered.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookHandler } from '../handler.js';
import { declaresTooLarge, discardRest, readLimited } from '../read-body.js';
import { reply, type WebhookReply } from '../responses.js';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function sendNodeReply(res: ServerResponse, answer: WebhookReply): void {
  if (res.headersSent || res.destroyed) return;
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader('content-length', Buffer.byteLength(answer.body));
  res.end(answer.body);
}

/** Reads the body of `req` (unless `rawBody` is already given) and answers on `res`. Shared with Express. */
export async function serveNode(core: WebhookHandler, req: IncomingMessage, res: ServerResponse, rawBody?: unknown): Promise<void> {
  try {
    if ((req.method ?? 'POST').toUpperCase() !== 'POST') {
      sendNodeReply(res, await core.handle({ rawBody: Buffer.alloc(0), headers: req.headers, method: req.method }));
      return;
    }
    let body = rawBody;
    if (body === undefined) {
      if (declaresTooLarge(req.headers['content-length'], core.maxBodyBytes)) return refuseTooLarge(core, req, res);
      const read = await readLimited(req, core.maxBodyBytes);
      if (!read.ok) {
        if (read.reason === 'too-large') return refuseTooLarge(core, req, res);
        return; // The client went away; there is no one to answer.
      }
      body = read.body;
    }
    sendNodeReply(res, await core.handle({ rawBody: body, headers: req.headers, method: req.method }));
  } catch {
    // core.handle does not throw; this guards the adapter itself so a bug never leaves a request hanging.
    sendNodeReply(res, reply(500, 'handler-error'));
  }
}

/** Discarding after a 413 stops at this many bytes or this long; then the connection is cut. */
const DISCARD_LIMITS = { maxBytes: 64 * 1024 * 1024, maxMs: 10_000 };

function refuseTooLarge(core: WebhookHandler, req: IncomingMessage, res: ServerResponse): void {
  const answer = core.tooLarge();
  core.reportRejection({ ok: false, status: 413, reason: 'too-large', message: `body is larger than ${core.maxBodyBytes} bytes` });
  if (res.headersSent || res.destroyed) return;
  // The answer goes out now; the response ends (and the connection may close) once the rest of the
  // body has been read off the wire, so the sender reads the 413 instead of a connection reset.
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader('content-length', Buffer.byteLength(answer.body));
  res.write(answer.body);
  discardRest(req, DISCARD_LIMITS, () => res.end());
}

export function toNodeHandler(core: WebhookHandler): NodeHandler {
  return (req, res) => serveNode(core, req, res);
}
