// The engine on node:http: createMockServer puts `handle(request: Request): Promise<Response>` (the
// workbench's one pipeline, engine/compose.ts) on a loopback port. Used by `npm start` (cli.ts), the tests,
// the benchmark and the certifier. This side owns what only a socket has:
// - node's request to a fetch `Request`: method, URL on this server's address, every header as sent, the
//   body as a stream the engine pulls from (`bodyOf`; it reads with a cap, so a chunked body over the limit
//   stops being read at the limit), a signal that fires when the connection closes first (handed beside
//   the Request: `withCloseSignal` of engine/exchange.ts);
// - the `Response` to node's response: status, headers, the bytes (or the body stream, with backpressure);
//   fetch's network error (`Response.error()`, an injected drop) destroys the socket; a 413 ends only once
//   the rest of the body is drained (bounded), so the client sees the answer instead of a reset;
// - the refusals node:http makes before any request exists, with the envelope on the raw socket: parser
//   errors (400, 431), CONNECT (405 with Allow), an `Expect` other than 100-continue (417), and TRACE,
//   which a fetch Request cannot carry (405 with Allow).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { basePathTemplate } from 'storefront-contract/contract';
import { bytesOf, withCloseSignal } from '../engine/exchange.js';
import { envelopeOf, errorResponse, fail, JSON_CONTENT_TYPE, replyResponse, type ErrorFields, type ErrorReply, MockHttpError } from '../http/errors.js';
import { docsSiteDir } from '../contract/files.js';
import { createMockHandler, type MockHandlerOptions } from '../engine/compose.js';
import { folderFiles } from './node-files.js';

export type { ControlRoute, WorkbenchExtension } from '../http/extension.js';

export interface MockServerOptions extends Omit<MockHandlerOptions, 'docs' | 'withoutPrism' | 'adminAbsent'> {
  /** 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1: the mock is a development tool and stays on loopback unless asked. */
  host?: string;
  /** Folder served at /docs. Default docs/site. */
  docsRoot?: string;
  /** Load Prism at start instead of on the first request that needs it. */
  preloadPrism?: boolean;
  /** Handlers in front of the engine, at the edge (the workbench's /mcp endpoint: mcp-http.ts): given the engine's `handle`, the one the server calls. */
  around?: (handle: FetchHandler) => FetchHandler;
}

export interface MockServer {
  url: string;
  port: number;
  /** `http://host:port/api/v1/{store_id}/storefront` and friends, for printing. */
  bases: { storefront: string; admin?: string; docs: string };
  close(): Promise<void>;
}

export type FetchHandler = (request: Request) => Promise<Response>;

export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  // The engine itself (engine/compose.ts): the same one createWorkbenchHandler and MSW call in process.
  const engine = await createMockHandler({ ...options, docs: folderFiles(options.docsRoot ?? docsSiteDir) });
  const { mounts, engines, logger } = engine;
  const handle = options.around ? options.around(engine.handle) : engine.handle;

  let origin = 'http://127.0.0.1';
  // requireHostHeader off: a request without Host gets the envelope from toRequest, not node's bare 400.
  const server = http.createServer({ requireHostHeader: false }, toNodeListener(handle, () => origin, logger.log.bind(logger)));
  // Idle kept-alive connections stay open longer than clients' own pools keep them (undici 4 s, browsers
  // and most HTTP libraries under 60 s), so it is the client that retires an idle socket. With node's
  // 5 s default, a busy client could send a POST on a socket the server was closing at that instant and
  // get ECONNRESET: a request lost to a race the client cannot safely retry.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Every socket, including ones node:http no longer tracks (CONNECT, parser errors), so close()
  // can end them all instead of waiting for clients.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Requests node's parser rejects (bad request line, invalid header characters, oversized headers)
  // still get the envelope, then the connection is closed.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const tooBig = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooBig ? 431 : 400;
    refuseSocket(socket, fail(status, 'invalid_parameter', tooBig ? 'Request headers are too large.' : 'The request is not valid HTTP/1.1.'));
    logger.log('-', '(unparseable request)', status, 0);
  });

  // An Expect other than 100-continue gets node's bare 417 unless answered here: give it the envelope.
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    writeError(
      res,
      fail(417, 'expectation_failed', `Expect: ${String(req.headers.expect).slice(0, 100)} is not supported; only "Expect: 100-continue" is (or send no Expect header).`, [
        { location: 'header', name: 'Expect', message: 'only 100-continue is supported' },
      ], { connection: 'close' }),
    );
    logger.log(req.method ?? '-', req.url ?? '', 417, 0);
  });

  // CONNECT bypasses the request handler in node:http (it is meant for proxies); answer it too.
  server.on('connect', (req: http.IncomingMessage, socket: Socket) => {
    socket.on('error', () => {});
    refuseSocket(socket, fail(405, 'method_not_allowed', 'CONNECT is not supported: this is an API mock, not a proxy.', [], { allow: 'GET, POST, OPTIONS' }));
    logger.log('CONNECT', req.url ?? '', 405, 0);
  });

  if (options.preloadPrism || options.dynamic) for (const engine of engines.values()) void engine.load().catch(() => {});

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  origin = url;
  return {
    url,
    port,
    bases: {
      storefront: `${url}${basePathTemplate.storefront}`,
      admin: mounts.has('admin') ? `${url}${basePathTemplate.admin}` : undefined,
      docs: `${url}/docs`,
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive connections would hold close() open until they time out.
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/**
 * A fetch handler as node:http's request listener. `origin` is this server's own address (the Request's
 * URL; the Host header is passed as sent, for the engine's checks). `log` notes what this side refuses.
 */
export function toNodeListener(
  handle: FetchHandler,
  origin: () => string,
  log: (method: string, url: string, status: number | '-', ms: number) => void = () => {},
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    const request = toRequest(req, res, origin());
    if (!(request instanceof Request)) {
      writeError(res, request);
      log(req.method ?? '-', (req.url ?? '').slice(0, 200), request.status, 0);
      return;
    }
    handle(request).then(
      (response) => writeResponse(res, response, req),
      (error: unknown) => writeError(res, fail(500, 'internal_error', `The workbench failed to answer: ${(error as Error)?.message ?? error}`)),
    );
  };
}

/** node's request as a fetch Request, or the refusal of one a Request cannot carry. */
function toRequest(req: http.IncomingMessage, res: http.ServerResponse, origin: string): Request | ErrorReply {
  const method = req.method ?? 'GET';
  if (method === 'TRACE' || method === 'TRACK') {
    return fail(405, 'method_not_allowed', `${method} is not supported by this workbench.`, [], { allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' });
  }
  const raw = req.url ?? '/';
  // HTTP/1.1 requires exactly one Host (RFC 9112 section 3.2: a server answers 400 to none or to several);
  // node's own check would answer a bare 400 without the envelope, and it lets several through (the
  // control routes' guard would then judge a value a browser never sends).
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    return fail(400, 'invalid_parameter', 'The request has no Host header, which HTTP/1.1 requires.', [{ location: 'header', name: 'host', message: 'is required' }]);
  }
  if (hostHeaders(req.rawHeaders) > 1) {
    return fail(400, 'invalid_parameter', 'The request has more than one Host header.', [{ location: 'header', name: 'host', message: 'must be sent once' }]);
  }
  let target: string;
  // The origin form is any absolute path, `//x/...` included (empty segments are segments: RFC 9112 section
  // 3.2.1), routed as sent, as every other adapter does; only the absolute form (a scheme) names a host.
  if (raw.startsWith('/')) target = `${origin}${raw}`;
  else {
    // An absolute request-target: its path and query, on this server.
    try {
      const parsed = new URL(raw, 'http://mock.invalid');
      target = `${origin}${parsed.pathname}${parsed.search}`;
    } catch {
      return fail(400, 'invalid_parameter', 'The request URL is malformed.', [{ location: 'path', name: '(url)', message: 'is not a valid URL' }]);
    }
  }
  const len = req.headers['content-length'];
  const announced = len !== undefined ? len !== '0' : req.headers['transfer-encoding'] !== undefined;
  const aborts = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborts.abort();
  });
  // The close signal goes beside the Request, not as its `signal` (several times cheaper: exchange.ts).
  return withCloseSignal(nodeRequest(target, method, req, announced && method !== 'GET' && method !== 'HEAD'), aborts.signal);
}

/** How many Host headers the request carried (node keeps the first in `headers`; `rawHeaders` has them all). */
function hostHeaders(raw: string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') n++;
  return n;
}

/**
 * node's request as a fetch Request, built lazily (as @hono/node-server's adapter does): `method`, `url`,
 * `headers` and `body` (the pull stream of `bodyOf`) are read off node's request when asked; anything else a
 * Request has (text(), clone(), signal, ...) builds the real Request on first use. Constructing a Request in
 * Node costs more than the engine's whole answer to a small request, and the engine reads those four.
 * `instanceof Request` holds.
 */
function nodeRequest(url: string, method: string, req: http.IncomingMessage, withBody: boolean): Request {
  return new LazyRequest(url, method, req, withBody) as unknown as Request;
}

class LazyRequest {
  #url: string;
  #method: string;
  #req: http.IncomingMessage;
  #withBody: boolean;
  #headers?: Headers;
  #body?: ReadableStream<Uint8Array> | null;
  #real?: Request;

  constructor(url: string, method: string, req: http.IncomingMessage, withBody: boolean) {
    this.#url = url;
    this.#method = method;
    this.#req = req;
    this.#withBody = withBody;
  }

  get url(): string {
    return this.#url;
  }

  get method(): string {
    return this.#method;
  }

  get headers(): Headers {
    if (this.#real) return this.#real.headers;
    if (!this.#headers) {
      const headers = new Headers();
      const raw = this.#req.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
      this.#headers = headers;
    }
    return this.#headers;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#real) return this.#real.body as ReadableStream<Uint8Array> | null;
    if (this.#body === undefined) this.#body = this.#withBody ? bodyOf(this.#req) : null;
    return this.#body;
  }

  get bodyUsed(): boolean {
    if (this.#real) return this.#real.bodyUsed;
    return this.#body ? this.#body.locked : false;
  }

  /** The real Request, built on first use of anything but the members above (with the same body stream). */
  real(): Request {
    if (!this.#real) {
      const body = this.body;
      this.#real = new Request(this.#url, { method: this.#method, headers: this.headers, ...(body ? { body, duplex: 'half' } : {}) } as RequestInit);
    }
    return this.#real;
  }
}
Object.setPrototypeOf(LazyRequest.prototype, Request.prototype);
// Every other member of Request reads the real one.
for (const name of Object.getOwnPropertyNames(Request.prototype)) {
  if (name === 'constructor' || Object.prototype.hasOwnProperty.call(LazyRequest.prototype, name)) continue;
  const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, name)!;
  if (typeof descriptor.value === 'function') {
    Object.defineProperty(LazyRequest.prototype, name, { value(this: LazyRequest, ...args: unknown[]) { return (this.real() as unknown as Record<string, (...a: unknown[]) => unknown>)[name](...args); } });
  } else if (descriptor.get) {
    Object.defineProperty(LazyRequest.prototype, name, { get(this: LazyRequest) { return (this.real() as unknown as Record<string, unknown>)[name]; } });
  }
}

/**
 * node's request body as a stream the engine pulls from: one chunk a pull, the request paused between
 * pulls. The engine reads with a cap; when it stops (a 413), the request is left paused, with no
 * listener, for this side to drain (`drainThenEnd`).
 */
function bodyOf(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (req.readableEnded) {
          controller.close();
          return;
        }
        return new Promise<void>((resolve) => {
          const settle = (act: () => void) => {
            req.off('data', onData);
            req.off('end', onEnd);
            req.off('error', onError);
            req.off('close', onClose);
            act();
            resolve();
          };
          const onData = (chunk: Buffer) => settle(() => {
            req.pause();
            controller.enqueue(chunk);
          });
          const onEnd = () => settle(() => controller.close());
          const onError = (error: Error) => settle(() => controller.error(error));
          const onClose = () => settle(() => (req.complete ? controller.close() : controller.error(new Error('the connection closed before the body ended'))));
          req.on('data', onData);
          req.once('end', onEnd);
          req.once('error', onError);
          req.once('close', onClose);
          req.resume();
        });
      },
    },
    { highWaterMark: 0 },
  );
}

// After a 413 the rest of an oversized body is read and dropped so the client sees the answer
// instead of a reset; past this many extra bytes, or this long, the connection is cut.
const DISCARD_CAP = 16 * 1024 * 1024;
const DISCARD_MS = 10_000;

/** Writes an engine's Response on node's response: bytes as they are, a stream with backpressure, a network error as a destroyed socket. */
export function writeResponse(res: http.ServerResponse, response: Response, req?: http.IncomingMessage): void {
  if (response.type === 'error') {
    (req?.socket ?? res.socket)?.destroy();
    res.destroy();
    return;
  }
  if (res.headersSent) {
    // Stryker disable next-line ConditionalExpression: end() on a response already ended is a no-op in node:http (no error, nothing written); the check only says what is meant
    if (!res.writableEnded) res.end();
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  const bytes = bytesOf(response);
  if (response.status === 413 && req && !req.complete) {
    if (bytes || response.body === null) {
      if (bytes) res.write(bytes);
      drainThenEnd(req, res);
    } else {
      // A refusal built as a stream (a handler at the edge: mcp-http.ts): its few bytes, then the drain.
      void response.arrayBuffer().then(
        (body) => {
          res.write(Buffer.from(body));
          drainThenEnd(req, res);
        },
        () => drainThenEnd(req, res),
      );
    }
    return;
  }
  if (bytes) {
    res.end(bytes);
    return;
  }
  if (response.body === null) {
    res.end();
    return;
  }
  void pipeBody(response.body, res);
}

async function pipeBody(body: ReadableStream<Uint8Array>, res: http.ServerResponse): Promise<void> {
  const reader = body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.once('drain', go);
          res.once('close', go);
        });
      }
    }
    res.end();
  } catch {
    // The body failed mid-way (a file that could not be read): the client sees the connection drop.
    res.destroy();
  }
}

/** Ends `res` once the request body has been read off the wire and dropped (bounded in bytes and time). */
function drainThenEnd(req: http.IncomingMessage, res: http.ServerResponse): void {
  let dropped = 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    res.end();
  };
  const timer = setTimeout(() => req.socket.destroy(), DISCARD_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_CAP) req.socket.destroy();
  });
  req.once('end', end);
  req.once('close', end);
  req.on('error', () => {});
  req.resume();
}

/** The error writer's envelope on node's response (the conformance proxies' own routes, refusals at this edge). */
export function writeError(res: http.ServerResponse, reply: ErrorReply | MockHttpError): void {
  writeResponse(res, errorResponse(undefined, reply));
}

/** A handler's answer (success or failure) on node's response. */
export function writeReply(res: http.ServerResponse, reply: { status: number; body?: unknown; error?: ErrorFields; headers?: Record<string, string> }, headers: Record<string, string> = {}): void {
  writeResponse(res, replyResponse(undefined, reply, headers));
}

/**
 * Answers on a socket node:http will not give a response object for (a request its parser refused, a
 * CONNECT): the status line, the reply's headers, the envelope (the error writer's `envelopeOf`), then
 * the connection is closed.
 */
export function refuseSocket(socket: Socket, reply: ErrorReply): void {
  const body = JSON.stringify(envelopeOf(reply.error));
  const extra = Object.entries(reply.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${reply.status} ${http.STATUS_CODES[reply.status] ?? ''}\r\n${extra}content-type: ${JSON_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
