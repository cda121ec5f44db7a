// The pipeline without a socket: a fetch `Request` in, a fetch `Response` out, through the very
// `handle(req, res)` node:http calls (mock/front.ts). The request becomes what node:http would hand the
// pipeline (method, path and query, lower-case headers with, when a body was sent, its `content-length`,
// then the body as one chunk once someone reads it); the answer is captured from the
// calls the pipeline makes on the response (setHeader, writeHead, write, end) and becomes a Response.
// Only what the pipeline uses is implemented; nothing here imports Node, so the browser build of the
// sandbox (../msw/browser.ts) runs the same bridge. No port, no parser: what node:http refuses before the
// pipeline sees a request (unparseable requests, CONNECT, `Expect`) does not arise in process.
import type { IncomingMessage, ServerResponse } from 'node:http';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;
export type FetchHandler = (request: Request) => Promise<Response>;

type Listener = (...args: any[]) => void;

/** A tiny event emitter: on, once, off, emit (the calls the pipeline makes on requests and responses). */
class Events {
  private readonly listeners = new Map<string, Array<{ fn: Listener; once: boolean }>>();

  on(event: string, fn: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), { fn, once: false }]);
    this.listening(event);
    return this;
  }

  once(event: string, fn: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), { fn, once: true }]);
    this.listening(event);
    return this;
  }

  off(event: string, fn: Listener): this {
    this.listeners.set(event, (this.listeners.get(event) ?? []).filter((l) => l.fn !== fn));
    return this;
  }

  removeListener(event: string, fn: Listener): this {
    return this.off(event, fn);
  }

  emit(event: string, ...args: unknown[]): boolean {
    const list = this.listeners.get(event) ?? [];
    this.listeners.set(event, list.filter((l) => !l.once));
    for (const l of list) l.fn(...args);
    return list.length > 0;
  }

  protected listening(_event: string): void {}
}

/** What the pipeline reads of node's IncomingMessage. The body flows, as one chunk, once read. */
class InProcessRequest extends Events {
  complete = false;
  destroyed = false;
  private flowing = false;
  readonly socket = { destroy: () => this.destroy() };

  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: Record<string, string>,
    private readonly body: Uint8Array | undefined,
  ) {
    super();
  }

  resume(): this {
    this.flow();
    return this;
  }

  destroy(): this {
    if (!this.destroyed) {
      this.destroyed = true;
      queueMicrotask(() => this.emit('close'));
    }
    return this;
  }

  protected listening(event: string): void {
    if (event === 'data') this.flow();
  }

  /** As a node stream: a 'data' listener (or resume) starts the flow, after the current turn's code. */
  private flow(): void {
    if (this.flowing) return;
    this.flowing = true;
    queueMicrotask(() => {
      if (this.body && this.body.length > 0) this.emit('data', Buffer.from(this.body.buffer, this.body.byteOffset, this.body.byteLength));
      this.complete = true;
      this.emit('end');
      this.emit('close');
    });
  }
}

/** What the pipeline calls on node's ServerResponse, captured into a fetch Response. */
class InProcessResponse extends Events {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  private readonly headers = new Map<string, string | string[]>();
  private readonly chunks: Uint8Array[] = [];
  readonly response: Promise<Response>;
  private settle!: (response: Response) => void;
  private abort!: (error: Error) => void;

  constructor(private readonly method: string) {
    super();
    this.response = new Promise<Response>((resolve, reject) => {
      this.settle = resolve;
      this.abort = reject;
    });
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers.set(name.toLowerCase(), typeof value === 'number' ? String(value) : Array.isArray(value) ? [...value] : (value as string));
    return this;
  }

  getHeader(name: string): string | string[] | undefined {
    return this.headers.get(name.toLowerCase());
  }

  hasHeader(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }

  /** As node's: the headers given here win over those set before. */
  writeHead(status: number, headers: Record<string, string | number | readonly string[]> = {}): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Uint8Array): boolean {
    this.headersSent = true;
    this.chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
    return true;
  }

  end(chunk?: string | Uint8Array | (() => void), done?: () => void): this {
    if (this.writableEnded) return this;
    if (typeof chunk === 'function') {
      done = chunk;
      chunk = undefined;
    }
    if (chunk !== undefined) this.write(chunk);
    this.headersSent = true;
    this.writableEnded = true;
    this.settle(this.toResponse());
    this.emit('finish');
    this.emit('close');
    done?.();
    return this;
  }

  destroy(): this {
    if (!this.writableEnded) {
      this.writableEnded = true;
      this.abort(new TypeError('the in-process sandbox dropped the connection'));
      this.emit('close');
    }
    return this;
  }

  private toResponse(): Response {
    const headers = new Headers();
    for (const [name, value] of this.headers) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else headers.set(name, value as string);
    }
    // As on the wire: no body for HEAD, 204 and 304 (a Response refuses one there).
    const noBody = this.method === 'HEAD' || this.statusCode === 204 || this.statusCode === 304;
    let body: Uint8Array<ArrayBuffer> | null = null;
    if (!noBody) {
      const size = this.chunks.reduce((n, c) => n + c.byteLength, 0);
      body = new Uint8Array(size);
      let at = 0;
      for (const c of this.chunks) {
        body.set(c, at);
        at += c.byteLength;
      }
    }
    return new Response(body, { status: this.statusCode, headers });
  }
}

/**
 * The pipeline as a fetch handler. `prefix` is a path the handler's base URL adds before the API's own
 * (`https://shop.test/backend` + `/api/v1/...`): it is taken off, as a reverse proxy would.
 */
export function toFetchHandler(handle: NodeHandler, prefix = ''): FetchHandler {
  const strip = prefix.replace(/\/+$/, '');
  return async (request) => {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    // Read whole: the Request holds it in memory already (the pipeline's size limit still applies).
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    // No Host is made up from the URL: a request that never left the process was not sent to a name
    // that could be rebound (http/local-origin.ts), whatever base URL the test chose.
    // What an HTTP client puts on the wire with a body: its length (the pipeline's limits read it first).
    if (body !== undefined) headers['content-length'] = String(body.byteLength);
    else delete headers['content-length'];
    delete headers['transfer-encoding'];
    const pathname = strip && (url.pathname === strip || url.pathname.startsWith(`${strip}/`)) ? url.pathname.slice(strip.length) || '/' : url.pathname;
    const req = new InProcessRequest(method, `${pathname}${url.search}`, headers, body);
    const res = new InProcessResponse(method);
    // The casts are the seam: the two classes implement what front.ts and its helpers call (the HTTP
    // parity test, test/msw/parity.test.ts, runs the same requests through both and compares).
    handle(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    return res.response;
  };
}
