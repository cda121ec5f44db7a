// Express (4 or 5). Works with no body parser on the route (the body is read here, capped) or after
// `express.raw({ type: 'application/json' })` (the Buffer it leaves in `req.body` is used as is). A body
// that a JSON parser already turned into an object cannot be verified (its bytes are gone), so it is
// refused with 401 `not-raw-body` and a message naming the fix, never processed and never a 500.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookHandler } from '../handler.js';
import { serveNode } from './node.js';

export type ExpressRequest = IncomingMessage & { body?: unknown; _body?: boolean };
export type ExpressMiddleware = (req: ExpressRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

function isBytes(value: unknown): boolean {
  return typeof value === 'string' || value instanceof Uint8Array;
}

export function toExpressMiddleware(core: WebhookHandler): ExpressMiddleware {
  return (req, res, next) => {
    const body = req.body;
    let rawBody: unknown;
    if (isBytes(body)) {
      rawBody = body;
    } else if (body === undefined || (req._body !== true && !req.readableEnded && isEmptyObject(body))) {
      // No parser ran (Express 5 leaves `undefined`; Express 4's body-parser leaves `{}` when the type did
      // not match and sets `_body` only when it read the stream): the bytes are still in the stream.
      rawBody = undefined;
    } else {
      rawBody = body; // Parsed already: parseDelivery answers `not-raw-body`.
    }
    serveNode(core, req, res, rawBody).catch(next);
  };
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0;
}
