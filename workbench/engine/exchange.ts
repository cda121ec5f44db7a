// One request as the engine sees it while it answers: the fetch `Request`, its URL parsed once, its
// headers as a lower-case record (what every check reads), and the headers every answer to it carries,
// added as the pipeline learns them (CORS, `X-Simulator`, a fault's marks). Answers are fetch `Response`s
// built by `respond`, the one place a status, headers and a body become one: no body for HEAD, 204 or
// 304, and bytes kept as bytes until someone reads the body, so an adapter that writes to a socket
// (adapters/node-http.ts) sends them without a stream. Nothing here imports Node: the browser build runs
// it as is.

/** Request headers by lower-case name, as the checks and handlers read them. */
export type RequestHeaders = Readonly<Record<string, string | undefined>>;

export interface Exchange {
  readonly request: Request;
  /** Upper-case, as sent. */
  readonly method: string;
  readonly url: URL;
  /** Path and query, for the log. */
  readonly target: string;
  readonly headers: RequestHeaders;
  /** Headers every answer to this request carries; an answer's own headers win over them. */
  readonly out: Record<string, string>;
}

export function exchangeOf(request: Request): Exchange {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { request, method: request.method.toUpperCase(), url, target: `${url.pathname}${url.search}`, headers, out: {} };
}

/**
 * A Response whose body is bytes already in memory, made into a stream only when someone reads it (MSW, a
 * test's fetch): building a fetch Response from bytes costs tens of microseconds in Node (a web stream per
 * answer), as much as the rest of a small answer's path, and the node:http adapter never needs the stream:
 * it writes the bytes (`bytesOf`). Status and headers are the Response's own; the body members read a real
 * Response built on first use. The same idea as Hono's node-server's lightweight Response.
 */
class BytesResponse extends Response {
  #bytes: Uint8Array;
  #real?: Response;

  constructor(bytes: Uint8Array, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }

  static bytesOf(response: Response): Uint8Array | undefined {
    return #bytes in response ? response.#bytes : undefined;
  }

  #body(): Response {
    return (this.#real ??= new Response(this.#bytes as BodyInit, { status: this.status, statusText: this.statusText, headers: this.headers }));
  }

  override get body(): Response['body'] {
    return this.#body().body;
  }

  override get bodyUsed(): boolean {
    return this.#real?.bodyUsed ?? false;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#body().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#body().blob();
  }

  override formData(): Promise<FormData> {
    return this.#body().formData();
  }

  override json(): Promise<any> {
    return this.#body().json();
  }

  override text(): Promise<string> {
    return this.#body().text();
  }

  override bytes(): ReturnType<Response['bytes']> {
    return this.#body().bytes();
  }

  override clone(): Response {
    return this.#body().clone();
  }
}

/**
 * An answer: `headers` over the exchange's own, the body left out for HEAD, 204 and 304 (the headers,
 * Content-Length included, stay, as node:http sends them). A body given as bytes stays bytes until read.
 */
export function respond(
  x: Pick<Exchange, 'method' | 'out'> | undefined,
  status: number,
  headers: Record<string, string>,
  body?: Uint8Array | string | ReadableStream<Uint8Array> | null,
): Response {
  const noBody = body === undefined || body === null || status === 204 || status === 304 || x?.method === 'HEAD';
  const init = { status, headers: x ? { ...x.out, ...headers } : headers };
  if (noBody) return new Response(null, init);
  // By shape, not instanceof: a test environment (jsdom) may give Uint8Array another realm.
  if (typeof body === 'string') return new BytesResponse(new TextEncoder().encode(body), init);
  if (ArrayBuffer.isView(body)) return new BytesResponse(body, init);
  return new Response(body, init);
}

/** The bytes of an answer built by `respond` from bytes (not a stream): an adapter writes them as they are. */
export function bytesOf(response: Response): Uint8Array | undefined {
  return BytesResponse.bytesOf(response);
}

const CLOSED = Symbol('sfc.closed');

/**
 * Hands the engine a signal that fires when the connection closes, beside the Request instead of as its
 * `signal` (a Request built with a signal costs several times one built without, in Node): the node:http
 * adapter's way. Returns the request.
 */
export function withCloseSignal(request: Request, signal: AbortSignal): Request {
  (request as Request & { [CLOSED]?: AbortSignal })[CLOSED] = signal;
  return request;
}

const ENGINE_CLOSING = Symbol('sfc.engineClosing');

/**
 * Marks a request as handed over in process (createWorkbenchHandler: MSW, a client's fetch), with a signal
 * that fires when the engine itself closes (an in-process engine has no socket whose closing ends what
 * waits), so a request waiting out a delay ends at close() instead of holding it. In process there is no
 * DNS between the caller and the engine, so the control routes' Host rule (a rebound name) does not apply
 * (`isInProcess`). Returns the request.
 */
export function fromInProcess(request: Request, closing: AbortSignal): Request {
  (request as Request & { [ENGINE_CLOSING]?: AbortSignal })[ENGINE_CLOSING] = closing;
  return request;
}

/** True for a request an in-process adapter handed over (fromInProcess). */
export function isInProcess(x: Exchange): boolean {
  return (x.request as Request & { [ENGINE_CLOSING]?: AbortSignal })[ENGINE_CLOSING] !== undefined;
}

/** Fires when the caller goes away (the adapter's close signal, else the Request's own) or the engine closes. */
export function closeSignal(x: Exchange): AbortSignal {
  const request = x.request as Request & { [CLOSED]?: AbortSignal; [ENGINE_CLOSING]?: AbortSignal };
  const own = request[CLOSED] ?? request.signal;
  const engine = request[ENGINE_CLOSING];
  // Combined only here, when something is about to wait: not a cost on every request.
  return engine ? AbortSignal.any([own, engine]) : own;
}

/** Fetch's network error: the connection is dropped (an injected fault). MSW answers it as a network error; the node adapter destroys the socket. */
export function dropped(): Response {
  return Response.error();
}
