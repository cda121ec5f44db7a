// The one forwarding path of the tools, and the recording proxy built on it. A node:http server on loopback
// forwards every request to the upstream with undici and answers the client with the upstream's answer:
// bodies stream both ways (nothing waits for a whole body), connections are kept alive on both sides, and
// content codings pass through untouched (the client receives the upstream's bytes). Beside the stream,
// each exchange's bodies are copied up to a cap, and once the client has its answer the exchange is handed
// to the proxy's observer: the recording proxy (`storefront-contract record`) turns it into a redacted
// HAR 1.2 entry; the validating proxy (`storefront-contract proxy`, conformance/rest/observed/) judges it
// too. An unreachable upstream is answered 502 with the contract's envelope, through the one error writer.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, request as undiciRequest } from 'undici';
import { fail } from '../../../workbench/http/errors.js';
import { writeError } from '../../../workbench/adapters/node-http.js';
import type { Har, HarEntry, HarNameValue, HarPostData } from '../har.js';
import { decodeBody } from '../http.js';
import { Redactor } from './redact.js';

/** Request header naming the step; the proxy stores it as the entry's `comment` and does not forward it. */
export const STEP_HEADER = 'x-conformance-step';
/** Request bodies above this many bytes are stored truncated (413 traffic), padded back on replay. */
export const MAX_STORED_BODY = 64 * 1024;
/** The start of a truncated request body kept in a HAR entry. */
const TRUNCATED_HEAD = 256;
/** How long closing waits for exchanges in flight to finish before it cuts their connections. */
const CLOSE_GRACE_MS = 2000;
/** Response bodies the recording proxy keeps whole by default (larger ones are passed through, not stored). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

// Hop-by-hop headers (RFC 9110 7.6.1) are the connection's, not the message's; `host` names the upstream;
// undici refuses `expect` (node:http already answered the client's 100-continue). The step header is ours.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'expect', STEP_HEADER]);

/** A body as the proxy saw it go by: its size, and its bytes while they stayed under the cap. */
export interface CapturedBody {
  /** Bytes that went through. */
  size: number;
  /** Every byte, as sent (a response still content-coded); undefined once the body passed the cap. */
  bytes?: Buffer;
  /** The first bytes (up to 256), kept whatever the size. */
  head: Buffer;
  /** The last byte (a truncated request body is padded back with it on replay). */
  last?: number;
}

/** One forwarded exchange, handed to the observer once the client has the whole answer. */
export interface ForwardedExchange {
  started: Date;
  method: string;
  /** The upstream URL the request went to. */
  url: string;
  /** As the client sent them, in order (the step header aside). */
  requestHeaders: HarNameValue[];
  /** The client's `x-conformance-step`, when it sent one. */
  step?: string;
  requestBody: CapturedBody;
  status: number;
  responseHeaders: HarNameValue[];
  responseBody: CapturedBody;
  /** Milliseconds: until the request was handed to the upstream, until its answer's head, until the answer's end, in all. */
  timings: { send: number; wait: number; receive: number; total: number };
}

export interface ForwardingProxyOptions {
  upstream: string;
  /** The command that runs it, in its 502 messages (`record`, `proxy`). */
  name?: string;
  port?: number;
  host?: string;
  /** Response bodies are copied for the observer up to this many bytes; larger ones only stream through. */
  maxBodyBytes?: number;
  /** Each complete exchange, after its answer has gone to the client; a throw is reported, never answered. */
  onExchange(exchange: ForwardedExchange): void;
  /** A request the proxy did not forward to the end: the upstream failed (answered 502) or a side hung up. */
  onFailure?(failure: { method: string; url: string; reason: string; answered502: boolean }): void;
  /** The proxy's own routes: true when it answered the request itself (nothing is forwarded). */
  route?(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean;
  /** `route` is asked only about paths starting with this. */
  routePrefix?: string;
  /** An observer that threw: the exchange was passed through all the same. */
  onObserverError?(error: unknown): void;
}

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

/** A copy of what streams through, up to a cap; counting the rest. */
class Capture extends Transform {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private over = false;
  private headBytes: Buffer = Buffer.alloc(0);
  size = 0;
  last?: number;

  constructor(private readonly cap: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.add(chunk);
    callback(null, chunk);
  }

  /** Takes a copy of a chunk that goes by another way (the response side listens beside its pipe). */
  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (chunk.length) this.last = chunk[chunk.length - 1];
    if (this.headBytes.length < TRUNCATED_HEAD) this.headBytes = Buffer.concat([this.headBytes, chunk.subarray(0, TRUNCATED_HEAD - this.headBytes.length)]);
    if (!this.over) {
      if (this.kept + chunk.length > this.cap) {
        this.over = true;
        this.chunks.length = 0;
      } else {
        this.chunks.push(chunk);
        this.kept += chunk.length;
      }
    }
  }

  /** The copy: its bytes in a buffer of their own (never a chunk the stream may share), so they can be moved to another thread. */
  body(): CapturedBody {
    return { size: this.size, head: this.headBytes, last: this.last, ...(this.over ? {} : { bytes: Buffer.concat(this.chunks, this.kept) }) };
  }
}

const EMPTY: CapturedBody = { size: 0, head: Buffer.alloc(0), bytes: Buffer.alloc(0) };

function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Path and query of the request line, also when a client sent the absolute form (`GET http://host/x`). */
function pathAndQuery(raw: string | undefined): string {
  const value = raw ?? '/';
  if (value.startsWith('/')) return value;
  try {
    const url = new URL(value);
    return `${url.pathname}${url.search}`;
  } catch {
    return `/${value}`;
  }
}

export async function createForwardingProxy(options: ForwardingProxyOptions): Promise<ForwardingProxy> {
  const upstream = new URL(options.upstream);
  // The upstream's path, if any, prefixes every forwarded path; the request never picks another host.
  const prefix = upstream.pathname.replace(/\/+$/, '');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });

  const server = http.createServer((req, res) => {
    const path = pathAndQuery(req.url);
    const local = `${prefix}${path}`;
    if (options.route && (!options.routePrefix || path.startsWith(options.routePrefix))) {
      let handled = false;
      try {
        handled = options.route(req, res, new URL(path, 'http://proxy.invalid'));
      } catch (error) {
        options.onObserverError?.(error);
      }
      if (handled) return;
    }
    const done = forward(req, res, `${upstream.origin}${local}`).catch((error: Error) => {
      const answered502 = !res.headersSent;
      // An unreachable upstream is the workbench's envelope too (the one error writer), with code bad_gateway.
      if (answered502) writeError(res, fail(502, 'bad_gateway', `${options.name ?? 'proxy'}: upstream failed: ${error.message}`));
      else res.destroy();
      options.onFailure?.({ method: (req.method ?? 'GET').toUpperCase(), url: `${upstream.origin}${local}`, reason: error.message, answered502 });
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
  /** Exchanges being forwarded: closing lets them finish (a little while) before it cuts connections. */
  const inFlight = new Set<Promise<void>>();
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });

  async function forward(req: http.IncomingMessage, res: http.ServerResponse, target: string): Promise<void> {
    const started = new Date();
    const t0 = performance.now();
    const headers: Record<string, string> = {};
    const requestHeaders: HarNameValue[] = [];
    let step: string | undefined;
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i];
      const value = req.rawHeaders[i + 1];
      const lower = name.toLowerCase();
      if (lower === STEP_HEADER) {
        step = value;
        continue;
      }
      requestHeaders.push({ name, value });
      if (HOP_BY_HOP.has(lower)) continue;
      headers[lower] = headers[lower] ? `${headers[lower]}, ${value}` : value;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    let requestCapture: Capture | undefined;
    let body: Transform | undefined;
    if (hasBody(req)) {
      requestCapture = new Capture(MAX_STORED_BODY);
      body = requestCapture;
      // A client that hangs up mid-body fails the upstream request too.
      pipeline(req, requestCapture).catch(() => undefined);
    } else {
      delete headers['content-length'];
    }
    const t1 = performance.now();
    const reply = await undiciRequest(target, { method: method as 'GET', headers, body, dispatcher });
    const t2 = performance.now();
    const outHeaders: Record<string, string | string[]> = {};
    const responseHeaders: HarNameValue[] = [];
    for (const [name, value] of Object.entries(reply.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) responseHeaders.push({ name, value: v });
      if (!HOP_BY_HOP.has(name)) outHeaders[name] = value;
    }
    res.writeHead(reply.statusCode, outHeaders);
    // The copy listens beside the pipe (no stage in between): it sees every chunk the pipe writes.
    const responseCapture = new Capture(maxBodyBytes);
    reply.body.on('data', (chunk: Buffer) => responseCapture.add(chunk));
    await pipeline(reply.body, res);
    const t3 = performance.now();
    const exchange: ForwardedExchange = {
      started,
      method,
      url: target,
      requestHeaders,
      ...(typeof step === 'string' && step ? { step } : {}),
      requestBody: requestCapture?.body() ?? EMPTY,
      status: reply.statusCode,
      responseHeaders,
      responseBody: responseCapture.body(),
      timings: { send: t1 - t0, wait: t2 - t1, receive: t3 - t2, total: t3 - t0 },
    };
    try {
      options.onExchange(exchange);
    } catch (error) {
      // The client has its answer already; an observer's bug must not reach it.
      options.onObserverError?.(error);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      clearTimeout(timer);
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await closed;
      await dispatcher.close().catch(() => undefined);
    },
  };
}

// ---- The recording proxy: every exchange as a redacted HAR 1.2 entry.

export interface RecordingProxyOptions {
  upstream: string;
  port?: number;
  host?: string;
  /** Called after each entry is added (the CLI appends it to the file). */
  onEntry?: (entry: HarEntry, har: Har) => void;
  /** Keep the entries in memory for `har()` (default true; the CLI writes them out instead, so its memory stays bounded). */
  keepEntries?: boolean;
}

export interface RecordingProxy {
  url: string;
  har(): Har;
  close(): Promise<void>;
}

export function emptyHar(creator: string): Har {
  return { log: { version: '1.2', creator: { name: creator, version: '1' }, entries: [] } };
}

export async function createRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const redactor = new Redactor();
  const har = emptyHar('storefront-contract record');
  const keep = options.keepEntries ?? true;
  const proxy = await createForwardingProxy({
    upstream: options.upstream,
    name: 'record',
    port: options.port,
    host: options.host,
    onExchange(exchange) {
      const entry = harEntry(exchange, redactor);
      if (keep) har.log.entries.push(entry);
      options.onEntry?.(entry, har);
    },
  });
  return { url: proxy.url, har: () => har, close: () => proxy.close() };
}

/** What a HAR entry says of a response body: its text with the content codings undone, or why it has none. */
export interface DecodedResponse {
  text?: string;
  /** Why there is no text: the body was over the proxy's cap, or could not be decoded. */
  omitted?: string;
  /** Its size decoded, when known. */
  size: number;
}

/** The response body as text, decoded from a copy (the client got the bytes as they came). */
export function decodedResponse(body: CapturedBody, headers: HarNameValue[], maxBytes = DEFAULT_MAX_BODY_BYTES): DecodedResponse {
  if (!body.bytes) return { omitted: `the body (${body.size} bytes) is over the proxy's limit of ${maxBytes} bytes`, size: body.size };
  const encoding = headers.filter((h) => h.name.toLowerCase() === 'content-encoding').map((h) => h.value).join(', ');
  const decoded = decodeBody(body.bytes, encoding || undefined, maxBytes);
  if (decoded.error) return decoded.tooLarge ? { omitted: `the body decoded is over the proxy's limit of ${maxBytes} bytes`, size: body.size } : { omitted: decoded.error, size: body.size };
  return { text: decoded.bytes.toString('utf8'), size: decoded.bytes.length };
}

/**
 * One forwarded exchange as a redacted HAR 1.2 entry (request first: the API key is marked before the
 * token it buys appears in the response). `decoded` is the response text when the caller has it already.
 */
export function harEntry(exchange: ForwardedExchange, redactor: Redactor, decoded: DecodedResponse = decodedResponse(exchange.responseBody, exchange.responseHeaders)): HarEntry {
  const requestMime = headerValue(exchange.requestHeaders, 'content-type') ?? 'application/octet-stream';
  const responseMime = headerValue(exchange.responseHeaders, 'content-type') ?? 'application/octet-stream';
  const reqHeaders = redactor.headers(exchange.requestHeaders);
  const url = redactor.url(exchange.url);
  const requestText = exchange.requestBody.size ? storedBody(exchange.requestBody, requestMime, redactor) : undefined;
  const responseText = decoded.text === undefined ? undefined : redactor.body(decoded.text, responseMime);
  const wire = exchange.responseBody.size;
  const t = exchange.timings;
  return {
    startedDateTime: exchange.started.toISOString(),
    time: round(t.total),
    request: {
      method: exchange.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: reqHeaders,
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(requestText ? { postData: requestText } : {}),
      headersSize: -1,
      bodySize: exchange.requestBody.size,
    },
    response: {
      status: exchange.status,
      statusText: http.STATUS_CODES[exchange.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: redactor.headers(exchange.responseHeaders),
      content: {
        size: decoded.size,
        ...(decoded.text !== undefined && decoded.size > wire ? { compression: decoded.size - wire } : {}),
        mimeType: responseMime,
        ...(responseText !== undefined ? { text: responseText } : { _omitted: decoded.omitted }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: wire,
    },
    cache: {},
    timings: { send: round(t.send), wait: round(t.wait), receive: round(t.receive) },
    ...(exchange.step ? { comment: exchange.step } : {}),
  };
}

function storedBody(body: CapturedBody, mimeType: string, redactor: Redactor): HarPostData {
  if (body.bytes && body.size <= MAX_STORED_BODY) return { mimeType, text: redactor.body(body.bytes.toString('utf8'), mimeType) };
  const head = redactor.text(body.head.toString('utf8'));
  const last = body.last === undefined ? '' : Buffer.from([body.last]).toString('utf8');
  return { mimeType, text: head, _truncated: true, _padWith: last };
}

export function headerValue(headers: HarNameValue[], name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name)?.value;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
