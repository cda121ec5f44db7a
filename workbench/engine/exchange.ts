// One request as the engine sees it while it answers: the fetch `Request`, its URL parsed once, its
// headers as a lower-case record (what every check reads), and the headers every answer to it carries,
// added as the pipeline learns them (CORS, `X-Simulator`, a fault's marks). Answers are fetch `Response`s
// built by `respond`, the one place a status, headers and a body become one: no body for HEAD, 204 or
// 304, and the bytes kept beside the Response so an adapter that writes to a socket (adapters/node-http.ts)
// sends them without reading a stream. Nothing here imports Node: the browser build runs it as is.

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

const BYTES = Symbol('sfc.bytes');
type WithBytes = Response & { [BYTES]?: Uint8Array };

/**
 * An answer: `headers` over the exchange's own, the body left out for HEAD, 204 and 304 (the headers,
 * Content-Length included, stay, as node:http sends them). A body given as bytes is also kept beside the
 * Response (`bytesOf`).
 */
export function respond(
  x: Pick<Exchange, 'method' | 'out'> | undefined,
  status: number,
  headers: Record<string, string>,
  body?: Uint8Array | string | ReadableStream<Uint8Array> | null,
): Response {
  const noBody = body === undefined || body === null || status === 204 || status === 304 || x?.method === 'HEAD';
  const bytes = noBody ? undefined : typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const response: WithBytes = new Response((bytes ?? null) as BodyInit | null, { status, headers: x ? { ...x.out, ...headers } : headers });
  // By shape, not instanceof: a test environment (jsdom) may give Uint8Array another realm.
  if (bytes !== undefined && ArrayBuffer.isView(bytes)) response[BYTES] = bytes;
  return response;
}

/** The bytes of an answer built by `respond` from bytes (not a stream): an adapter writes them as they are. */
export function bytesOf(response: Response): Uint8Array | undefined {
  return (response as WithBytes)[BYTES];
}

/** Fetch's network error: the connection is dropped (an injected fault). MSW answers it as a network error; the node adapter destroys the socket. */
export function dropped(): Response {
  return Response.error();
}
