// The request log as data, for the console (workbench/console): every request the pipeline answers, as an
// entry in a ring buffer of recent ones, handed to subscribers as it finishes. log.ts prints a line per
// request; this keeps what a page shows when one is opened: method, path, status, time, the operation it
// matched, the store, and (bounded) the headers and bodies. Memory is bounded by construction: at most
// `capacity` entries, each holding at most `bodyBytes` of each body; a subscriber that cannot keep up is
// the subscriber's problem (console/stream.ts drops entries for it, with a count), never the feed's.
//
// Secrets never leave through here: headers that carry credentials are masked, the URL goes through the
// log's own redaction (redactUrl), and bodies get the same shape-based redaction plus JSON values under
// credential-like keys (`secret`, `access_token`, ...) replaced. Masking runs when an entry is read
// (`detail`), not when it is recorded: the pipeline pays for a reference and a bounded copy only.
// Browser-safe (no Node module): the pipeline that imports it is also bundled for the page (msw/).
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { redactUrl } from './log.js';

/** What a page lists: one line of the log. */
export interface FeedSummary {
  id: number;
  /** ISO time the request arrived (the wall clock). */
  at: string;
  method: string;
  /** Path and query, redacted as the log prints them. */
  path: string;
  /** `null`: no answer was sent (a dropped connection). */
  status: number | null;
  ms: number;
  /** `storefront`, `admin` (contract operations), `back-office` (under /__simulator), `other`. */
  api: string;
  store: string | null;
  /** The operationId the request matched, or the route (`POST /__simulator/stores/{store_id}/orders`). */
  operation: string | null;
  /** An injected fault's note, or a sandbox warning. */
  note?: string;
  /** For a 4XX or 5XX with the contract's envelope: its message, code and details. */
  error?: { message: string; code: string; details: unknown[] };
}

/** What a page shows when one entry is opened: headers masked, bodies bounded and redacted. */
export interface FeedDetail extends FeedSummary {
  request: { headers: Record<string, string>; body: string | null; truncated: boolean };
  response: { headers: Record<string, string>; body: string | null; truncated: boolean };
}

interface Entry {
  summary: FeedSummary;
  requestHeaders: IncomingHttpHeaders;
  responseHeaders: OutgoingHttpHeaders;
  requestBody?: Buffer;
  requestTruncated: boolean;
  responseBody?: Buffer;
  responseTruncated: boolean;
}

/** What the pipeline tells the feed about a request while it answers it. */
export interface RequestTrace {
  api?: string;
  store?: string;
  operation?: string;
  note?: string;
  /** The request body as read by the pipeline (bytes or the parsed JSON object of a control route). */
  body?: Buffer | Record<string, unknown>;
}

export const FEED_CAPACITY = 500;
export const FEED_BODY_BYTES = 8 * 1024;
const TRUNCATED = '…[truncated]';

// Headers whose value is a credential, by name. Anything that looks like one by shape is caught by redactUrl's shapes.
const SECRET_HEADER = /^(authorization|proxy-authorization|x-api-key|cookie|set-cookie|x-svc-signature)$|secret|token|password|api[-_]?key|signature/i;
// JSON keys whose value is a credential: the Admin API's webhook `secret`, tokens, keys, passwords, OTPs, card numbers.
const SECRET_KEY = /^(secret|signing_secret|webhook_secret|access_token|refresh_token|token|password|api_key|apikey|otp|card_number|cvv)$/i;

const traces = new WeakMap<IncomingMessage, RequestTrace>();

/** Notes what the pipeline learned about a request (its operation, store, body) for its feed entry. */
export function traceRequest(req: IncomingMessage, fields: RequestTrace): void {
  const trace = traces.get(req);
  if (trace) Object.assign(trace, fields);
}

export type FeedListener = (summary: FeedSummary) => void;

export class RequestFeed {
  private readonly ring: Array<Entry | undefined>;
  private next = 1;
  private readonly listeners = new Set<FeedListener>();

  constructor(
    readonly capacity = FEED_CAPACITY,
    private readonly bodyBytes = FEED_BODY_BYTES,
    private readonly knownSecrets: readonly string[] = [],
    /** Paths not recorded (the console's own page, assets, stream and calls). */
    private readonly skip: (pathname: string) => boolean = () => false,
  ) {
    this.ring = new Array(capacity);
  }

  /**
   * Starts recording one request: called by the pipeline as it begins. The answer's body is copied (at
   * most `bodyBytes`) as it is written; the entry is recorded when the response finishes or closes.
   */
  begin(req: IncomingMessage, res: ServerResponse): ((status: number | null, ms: number, note?: string) => void) | undefined {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    if (this.skip(q < 0 ? rawUrl : rawUrl.slice(0, q))) return undefined;
    const trace: RequestTrace = {};
    traces.set(req, trace);
    const at = new Date().toISOString();
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      if (kept >= this.bodyBytes) {
        truncated = true;
        return;
      }
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      const room = this.bodyBytes - kept;
      if (bytes.length > room) truncated = true;
      const part = Buffer.from(bytes.subarray(0, room));
      chunks.push(part);
      kept += part.length;
    };
    const write = res.write;
    const end = res.end;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse['write'];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse['end'];
    return (status, ms, note) => {
      const body = trace.body;
      const requestBody = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
      this.record({
        summary: {
          id: 0,
          at,
          method: req.method ?? '-',
          path: redactUrl(rawUrl, this.knownSecrets),
          status,
          ms: Math.round(ms * 10) / 10,
          api: trace.api ?? 'other',
          store: trace.store ?? null,
          operation: trace.operation ?? null,
          ...(note || trace.note ? { note: note ?? trace.note } : {}),
        },
        requestHeaders: req.headers,
        responseHeaders: res.headersSent ? res.getHeaders() : {},
        requestBody: requestBody && requestBody.length > this.bodyBytes ? Buffer.from(requestBody.subarray(0, this.bodyBytes)) : requestBody,
        requestTruncated: requestBody !== undefined && requestBody.length > this.bodyBytes,
        responseBody: chunks.length ? Buffer.concat(chunks) : undefined,
        responseTruncated: truncated,
      });
    };
  }

  /** Adds an entry (the oldest drops out past `capacity`) and hands its summary to every subscriber. */
  private record(entry: Entry): void {
    entry.summary.id = this.next++;
    const status = entry.summary.status;
    if (status !== null && status >= 400 && entry.responseBody) {
      const error = envelopeError(entry.responseBody);
      if (error) entry.summary.error = { code: error.code, message: this.redact(error.message).slice(0, 500), details: error.details.slice(0, 10) };
    }
    this.ring[entry.summary.id % this.capacity] = entry;
    for (const listener of this.listeners) listener(entry.summary);
  }

  /** The entries still held, oldest first; `after`: only those with a greater id (an SSE `Last-Event-ID`). */
  recent(after = 0): FeedSummary[] {
    const out: FeedSummary[] = [];
    const first = Math.max(after + 1, this.next - this.capacity);
    for (let id = first; id < this.next; id++) {
      const entry = this.ring[id % this.capacity];
      if (entry && entry.summary.id === id) out.push(entry.summary);
    }
    return out;
  }

  /** One entry with its headers (credentials masked) and bodies (bounded, redacted); undefined once dropped. */
  detail(id: number): FeedDetail | undefined {
    const entry = this.ring[id % this.capacity];
    if (!entry || entry.summary.id !== id) return undefined;
    return {
      ...entry.summary,
      request: { headers: maskHeaders(entry.requestHeaders), ...this.body(entry.requestBody, entry.requestTruncated) },
      response: { headers: maskHeaders(entry.responseHeaders), ...this.body(entry.responseBody, entry.responseTruncated) },
    };
  }

  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  private body(bytes: Buffer | undefined, truncated: boolean): { body: string | null; truncated: boolean } {
    if (!bytes || bytes.length === 0) return { body: null, truncated: false };
    let text = bytes.toString('utf8');
    try {
      if (!truncated) text = JSON.stringify(maskJson(JSON.parse(text)), null, 2);
    } catch {
      // not JSON: shown as text, redacted by shape below
    }
    return { body: `${this.redact(text)}${truncated ? TRUNCATED : ''}`, truncated };
  }

  private redact(text: string): string {
    let out = text.replace(SECRET_SHAPES, '[redacted]');
    for (const secret of this.knownSecrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
    return out;
  }
}

// The log's shapes (log.ts), in bodies: JWTs, this project's secrets and keys, the mock's tokens.
const SECRET_SHAPES = /eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*|whsec_[\w-]+|sk_[\w-]{8,}|mock_(?:refresh_)?[\w-]{16,}|sha256=[0-9a-f]{64}/g;

/** Header values as a page may show them: credentials replaced, keeping an Authorization scheme. */
export function maskHeaders(headers: IncomingHttpHeaders | OutgoingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    if (!SECRET_HEADER.test(name)) {
      out[name] = text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
      continue;
    }
    const scheme = /^authorization$/i.test(name) ? /^(\w+)\s/.exec(text)?.[1] : undefined;
    out[name] = scheme ? `${scheme} [masked]` : '[masked]';
  }
  return out;
}

/** A parsed JSON body with the values under credential-like keys replaced. */
export function maskJson(value: unknown, depth = 0): unknown {
  if (depth > 50 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskJson(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) && v !== null && v !== '' ? '[masked]' : maskJson(v, depth + 1);
  return out;
}

/** The message, code and details of the contract's error envelope in a body, if it is one. */
function envelopeError(bytes: Buffer): { message: string; code: string; details: unknown[] } | undefined {
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as { success?: unknown; message?: unknown; content?: { error?: { code?: unknown; details?: unknown } } };
    if (parsed?.success !== false || typeof parsed.message !== 'string') return undefined;
    const error = parsed.content?.error;
    return { message: parsed.message, code: typeof error?.code === 'string' ? error.code : '', details: Array.isArray(error?.details) ? error.details : [] };
  } catch {
    return undefined;
  }
}
