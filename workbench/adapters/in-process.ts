// The in-process adapter: the engine handed requests without a network (createWorkbenchHandler, and over it
// MSW's handlers and a client's `fetch`). What a socket gives the node:http adapter for free, it does here:
// - refuses what a server refuses before its engine sees a request, so a front end's tests cannot pass on
//   a request a real server would refuse: a method in lower case that fetch does not upper-case itself
//   (fetch sends `patch` as written; node's parser answers 400), and a request line and headers over
//   node's 16 KB (431);
// - marks each request as in process (`fromInProcess`): the control routes' Host rule has no DNS to guard,
//   and the engine's closing signal ends what waits (a fault's delay), as closing a server ends its sockets;
// - drains on close: the requests already in the pipeline (a write reading its body) finish, for up to
//   CLOSE_DRAIN_MS, before the caller closes the store under them; after close, every request is a
//   network error, as to a stopped server.
import { fromInProcess } from '../engine/exchange.js';
import { errorResponse, fail, type ErrorReply } from '../http/errors.js';

/** How long an in-process workbench's close() waits for the requests in its pipeline to finish. */
export const CLOSE_DRAIN_MS = 5_000;
/** A request line and headers larger than this are refused as node:http refuses them (its default `maxHeaderSize`). */
const MAX_HEADER_BYTES = 16 * 1024;
/** The methods fetch upper-cases itself; any other method reaches a server exactly as written. */
const NORMALIZED_BY_FETCH = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

export interface InProcessHandler {
  handle(request: Request): Promise<Response>;
  /** Refuses new requests, ends what waits, and resolves once the requests in the pipeline are answered (or CLOSE_DRAIN_MS passed). */
  drain(): Promise<void>;
}

export function inProcessHandler(engine: (request: Request) => Promise<Response>): InProcessHandler {
  const closing = new AbortController();
  const inFlight = new Set<Promise<Response>>();
  let closed = false;
  return {
    handle(request) {
      if (closed) return Promise.resolve(Response.error());
      const refused = refuseWhatAServerWould(request);
      if (refused) return Promise.resolve(errorResponse(undefined, refused));
      const answer = engine(fromInProcess(request, closing.signal));
      inFlight.add(answer);
      const settle = () => inFlight.delete(answer);
      answer.then(settle, settle);
      return answer;
    },
    async drain() {
      closed = true;
      closing.abort();
      if (inFlight.size === 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_DRAIN_MS)))]);
      clearTimeout(timer);
    },
  };
}

function refuseWhatAServerWould(request: Request): ErrorReply | undefined {
  const method = request.method;
  if (!NORMALIZED_BY_FETCH.has(method) && method !== method.toUpperCase()) {
    return fail(400, 'invalid_parameter', `The method "${method.slice(0, 20)}" would not reach a server: methods are case-sensitive and fetch upper-cases only ${[...NORMALIZED_BY_FETCH].join(', ')}; send "${method.toUpperCase().slice(0, 20)}".`);
  }
  let bytes = request.url.length;
  if (bytes <= MAX_HEADER_BYTES) request.headers.forEach((value, name) => (bytes += name.length + value.length + 4));
  if (bytes > MAX_HEADER_BYTES) return fail(431, 'invalid_parameter', 'Request headers are too large.');
  return undefined;
}
