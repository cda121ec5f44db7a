// The request log as data, for the console (workbench/console): every request the pipeline answers, as an
// entry in a ring buffer of recent ones, handed to subscribers as it finishes. log.ts prints a line per
// request; this keeps what a page shows when one is opened: method, path, status, time, the operation it
// matched, the store, and (bounded) the headers and bodies. Memory is bounded by construction: at most
// `capacity` entries, each holding at most `bodyBytes` of each body; a subscriber that cannot keep up is
// the subscriber's problem (console/stream.ts drops entries for it, with a count), never the feed's.
//
// Bodies are kept only while a page watches (a subscriber), each cut to `bodyBytes`, and all of them together
// to `bodyBudget` bytes: past it the oldest entries' bodies are dropped (their summaries stay). With no page
// open an entry holds no body at all: an error's answer is reduced to its envelope's fields as it is recorded.
// `heldBytes` is the bodies' accounted size (tests assert on it).
//
// Secrets never leave through here: headers that carry credentials are masked, the URL goes through the
// log's own redaction (redactUrl), and bodies get the same shape-based redaction plus JSON values under
// credential-like keys (`secret`, `access_token`, ...) replaced. Masking runs when an entry is read
// (`detail`), not when it is recorded, and so does the summary's URL redaction unless a page is subscribed:
// the pipeline pays for a few references and, for an answer over the bound, one bounded copy.
// Browser-safe (no Node module): the engine that imports it is also bundled for the page (msw/).
import type { Exchange, RequestHeaders } from '../engine/exchange.js';
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
  /**
   * A read of the workbench's own control routes (GET or HEAD under /__simulator: the back office, clocks,
   * faults; what the console page itself polls), not a call of the contract's APIs: the page hides these unless asked.
   */
  own?: true;
  /** For a 4XX or 5XX with the contract's envelope: its message, code and details. */
  error?: { message: string; code: string; details: Array<{ location?: string; name: string; message: string }> };
}

/** What a page shows when one entry is opened: headers masked, bodies bounded and redacted. */
export interface FeedDetail extends FeedSummary {
  request: { headers: Record<string, string>; body: string | null; truncated: boolean };
  response: { headers: Record<string, string>; body: string | null; truncated: boolean };
  /** False when its bodies are not held: no console page was open as it was answered, or they were dropped for the byte budget. */
  bodies_kept: boolean;
  /** Why the bodies are not held, in a sentence (with `bodies_kept: false`). */
  bodies_note?: string;
}

/** The fields of the contract's error envelope the log's summary shows (kept instead of the body when no page watches). */
interface Envelope {
  message: string;
  code: string;
  details: unknown[];
}

interface Entry {
  id: number;
  /** Arrival, ms since the epoch. */
  at: number;
  method: string;
  rawUrl: string;
  status: number | null;
  ms: number;
  note?: string;
  /** What the pipeline noted (api, store, operation, note); its `body` is cleared once the entry is recorded. */
  trace: RequestTrace;
  requestHeaders: RequestHeaders;
  responseHeaders: Record<string, string>;
  requestBody?: Buffer;
  requestTruncated: boolean;
  responseBody?: Buffer;
  responseTruncated: boolean;
  /** Set when the response body is a place in the feed's slab: valid while no later copy reused it. */
  slabSeq?: number;
  /** False for a request answered while no page watched: its bodies were not kept (an error's envelope was, as `envelope`). */
  bodiesKept: boolean;
  /** Its bodies were dropped to keep the feed within its byte budget. */
  overBudget?: boolean;
  /** The bytes its bodies hold (counted in the feed's `heldBytes`). */
  bytes: number;
  /** An error's envelope, read from its answer as it was recorded with no page watching (the body itself is not kept). */
  envelope?: Envelope;
  /** Built on first read (a subscriber, `recent`, `detail`): the URL's redaction and the envelope's parse are paid only for entries someone looks at. */
  summary?: FeedSummary;
}

/** What the pipeline tells the feed about a request while it answers it. */
export interface RequestTrace {
  api?: string;
  store?: string;
  operation?: string;
  note?: string;
  /** A read of the workbench's own control routes (FeedSummary.own). */
  own?: boolean;
  /** The request body as read by the pipeline (bytes or the parsed JSON object of a control route). */
  body?: Buffer | Record<string, unknown>;
}

export const FEED_CAPACITY = 500;
export const FEED_BODY_BYTES = 8 * 1024;
/** All bodies the feed holds, together (requests' and answers'): past it the oldest entries' bodies go. */
export const FEED_BODY_BUDGET = 2 * 1024 * 1024;
const TRUNCATED = '…[truncated]';

// Headers whose value is a credential, by name: the known ones, and any named like a secret, a credential or
// a key (`X-Store-Key`, `X-Partner-Auth`; not `Idempotency-Key`, a request's identity). Values with a
// credential's scheme or shape, or a known secret, are masked whatever the name (maskHeaders).
const SECRET_HEADER = /^(authorization|proxy-authorization|x-api-key|cookie|set-cookie|x-svc-signature)$|secret|token|password|passwd|credential|api[-_]?key|signature|session|(^|-)auth(-|$)|^(?!idempotency-key$).*key$/i;
// JSON keys whose value is a credential: the Admin API's webhook `secret`, tokens, keys, passwords, OTPs, card numbers.
const SECRET_KEY = /^(secret|signing_secret|webhook_secret|access_token|refresh_token|token|password|api_key|apikey|otp|card_number|cvv)$/i;

// The feed's notes ride on the exchange under symbols (one shape for every request), not in WeakMaps:
// two ephemeron entries per request made every garbage collection dearer (bench/NOTES.md).
const TRACE = Symbol('sfc.requestTrace');
const CAPTURE = Symbol('sfc.bodyCapture');
type Traced = Exchange & { [TRACE]?: RequestTrace; [CAPTURE]?: Capture };

interface Capture {
  limit: number;
  /** False: only an error's body (4XX, 5XX) is kept, for the envelope of its summary. */
  all: boolean;
  kept?: Buffer;
  parts?: Buffer[];
  size: number;
  truncated: boolean;
  /** Copies the first bytes of a large body into the feed's slab (no allocation); returns the copy and its sequence number. */
  copy: (view: Buffer) => Buffer;
  /** The slab sequence number of the copy, when one was made (a later copy may reuse its place: detail checks). */
  slabSeq?: number;
}

/**
 * The writers of answers (errors.ts `jsonResponse`, the pipeline's cached and Prism answers) hand the body over
 * here; it is kept (bounded by FEED_BODY_BYTES) only when the feed records this response.
 */
export function captureBody(x: Exchange, status: number, body: Buffer | string | undefined): void {
  const capture = (x as Traced)[CAPTURE];
  if (!capture || body === undefined || (!capture.all && status < 400)) return;
  const room = capture.limit - capture.size;
  if (room <= 0) {
    if (body.length > 0) capture.truncated = true;
    return;
  }
  let bytes = typeof body === 'string' ? Buffer.from(body.length > room ? body.slice(0, room) : body) : body;
  if (bytes.length > room || (typeof body === 'string' && body.length > room)) {
    capture.truncated = true;
    if (bytes.length > room) bytes = capture.copy(bytes.subarray(0, room));
  }
  capture.size += bytes.length;
  if (!capture.kept) capture.kept = bytes;
  else (capture.parts ??= [capture.kept]).push(bytes);
}

/** Notes what the pipeline learned about a request (its operation, store, body) for its feed entry. */
export function traceRequest(x: Exchange, fields: RequestTrace): void {
  const trace = (x as Traced)[TRACE];
  if (trace) Object.assign(trace, fields);
}

export type FeedListener = (summary: FeedSummary) => void;

export class RequestFeed {
  private readonly ring: Array<Entry | undefined>;
  private next = 1;
  private readonly listeners = new Set<FeedListener>();
  /**
   * The first bytes of large answers, copied here instead of into a new buffer each (an allocation per
   * request, which the garbage collector then has to free, was most of what an open page cost):
   * `slabPlaces` places of `bodyBytes`, used in turn, allocated when a page first watches.
   */
  private slab?: Buffer;
  private slabNext = 0;
  private readonly slabPlaces: number;
  /** The bytes the held entries' bodies take (at most `bodyBudget`). */
  private held = 0;
  /** The oldest entry that may still hold bodies: where dropping for the budget resumes. */
  private evictFrom = 1;
  /** All bodies held together, in bytes: at least two whole bodies (one entry's request and answer). */
  readonly bodyBudget: number;

  constructor(
    readonly capacity = FEED_CAPACITY,
    private readonly bodyBytes = FEED_BODY_BYTES,
    private readonly knownSecrets: readonly string[] = [],
    /** Paths not recorded (the console's own page, assets, stream and calls). */
    private readonly skip: (pathname: string) => boolean = () => false,
    bodyBudget = FEED_BODY_BUDGET,
  ) {
    this.ring = new Array(capacity);
    this.bodyBudget = Math.max(bodyBudget, 2 * bodyBytes);
    this.slabPlaces = Math.max(1, Math.min(capacity, Math.floor(this.bodyBudget / bodyBytes)));
  }

  /** The bytes of bodies the feed holds now (requests' and answers', as kept: each at most `bodyBytes`); 0 while no page has watched. */
  get heldBytes(): number {
    return this.held;
  }

  /**
   * The bytes of every body the held entries reference, counted by walking them (the request as the
   * pipeline read it included, wherever it hangs): what `heldBytes` accounts for incrementally. For tests.
   */
  countHeldBytes(): number {
    let total = 0;
    for (const entry of this.ring) {
      if (!entry) continue;
      const traced = entry.trace.body;
      total += (entry.requestBody?.length ?? 0) + (entry.responseBody?.length ?? 0);
      if (traced !== undefined) total += Buffer.isBuffer(traced) ? traced.length : JSON.stringify(traced).length;
    }
    return total;
  }

  /**
   * Starts recording one request: called by the pipeline as it begins. The answer's body (at most
   * `bodyBytes`) comes from its writer (captureBody); the entry is recorded when the answer is decided.
   */
  begin(x: Exchange): ((status: number | null, ms: number, note?: string, responseHeaders?: Headers) => void) | undefined {
    const rawUrl = x.target;
    if (this.skip(x.url.pathname)) return undefined;
    const trace: RequestTrace = { api: undefined, store: undefined, operation: undefined, note: undefined, own: undefined, body: undefined };
    (x as Traced)[TRACE] = trace;
    const at = Date.now();
    const limit = this.bodyBytes;
    // The answer's first `limit` bytes, handed over by the writers (captureBody): a small body is kept as
    // it is (no copy; it holds no more than `limit`), a large one copied up to `limit` (a view would keep
    // it all). The response object itself is left alone: replacing its write/end per request made node's
    // own calls of them polymorphic, which cost more than the rest of the log together (bench/NOTES.md).
    // Bodies are kept while a page watches (a subscriber): with none, an entry is its summary's fields, the
    // two header objects and an error's answer (its envelope), which keeps the log's cost per request to a
    // few references (bench/NOTES.md).
    const bodies = this.listeners.size > 0;
    const capture: Capture = {
      limit,
      all: bodies,
      size: 0,
      truncated: false,
      copy: (view) => {
        capture.slabSeq = this.slabNext;
        return this.toSlab(view);
      },
    };
    (x as Traced)[CAPTURE] = capture;
    return (status, ms, note, responseHeaders) => {
      const body = trace.body;
      // The request as read (up to the body limit, 1 MB by default) is never held past this point: with no
      // page watching it is dropped, with one its first `limit` bytes are copied (a view would keep it all).
      trace.body = undefined;
      let requestBody: Buffer | undefined;
      let requestTruncated = false;
      if (bodies && body !== undefined) {
        const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
        requestTruncated = bytes.length > limit;
        requestBody = bytes.length === 0 ? undefined : Buffer.from(requestTruncated ? bytes.subarray(0, limit) : bytes);
      }
      let responseBody = capture.parts ? Buffer.concat(capture.parts, capture.size) : capture.kept;
      let envelope: Envelope | undefined;
      // No page watching: an error's answer was kept only for its envelope; that is read now, the bytes let go.
      if (!bodies && responseBody) {
        envelope = status !== null && status >= 400 ? envelopeError(responseBody) : undefined;
        responseBody = undefined;
      }
      this.record({
        id: 0,
        at,
        method: x.method,
        rawUrl,
        status,
        ms,
        note,
        trace,
        requestHeaders: x.headers,
        // A copy, made only while a page watches (the request's headers are a reference, kept always).
        responseHeaders: bodies && responseHeaders ? headersRecord(responseHeaders) : {},
        requestBody,
        requestTruncated,
        responseBody,
        responseTruncated: capture.truncated,
        slabSeq: capture.slabSeq,
        bodiesKept: bodies,
        bytes: (requestBody?.length ?? 0) + (responseBody?.length ?? 0),
        envelope,
      });
    };
  }

  private toSlab(view: Buffer): Buffer {
    const slab = (this.slab ??= Buffer.allocUnsafe(this.slabPlaces * this.bodyBytes));
    const at = (this.slabNext++ % this.slabPlaces) * this.bodyBytes;
    view.copy(slab, at);
    return slab.subarray(at, at + view.length);
  }

  /** Adds an entry (the oldest drops out past `capacity`) and hands its summary to every subscriber. */
  private record(entry: Entry): void {
    entry.id = this.next++;
    const slot = entry.id % this.capacity;
    const dropped = this.ring[slot];
    if (dropped) this.held -= dropped.bytes;
    this.ring[slot] = entry;
    if (entry.bytes > 0) {
      this.held += entry.bytes;
      if (this.held > this.bodyBudget) this.keepWithinBudget();
    }
    if (this.listeners.size === 0) return;
    const summary = this.summaryOf(entry);
    for (const listener of this.listeners) listener(summary);
  }

  /** Drops the bodies of the oldest entries holding any until all held fit the budget (their summaries stay). */
  private keepWithinBudget(): void {
    let id = Math.max(this.evictFrom, this.next - this.capacity);
    for (; this.held > this.bodyBudget && id < this.next; id++) {
      const entry = this.ring[id % this.capacity];
      if (!entry || entry.id !== id || entry.bytes === 0) continue;
      // The envelope of an error stays readable for its summary.
      if (entry.status !== null && entry.status >= 400 && entry.responseBody && !entry.summary) entry.envelope = envelopeError(entry.responseBody);
      this.held -= entry.bytes;
      entry.bytes = 0;
      entry.requestBody = undefined;
      entry.responseBody = undefined;
      entry.overBudget = true;
    }
    this.evictFrom = id;
  }

  private summaryOf(entry: Entry): FeedSummary {
    if (entry.summary) return entry.summary;
    const { trace, status } = entry;
    const note = entry.note ?? trace.note;
    const summary: FeedSummary = {
      id: entry.id,
      at: new Date(entry.at).toISOString(),
      method: entry.method,
      path: redactUrl(entry.rawUrl, this.knownSecrets),
      status,
      ms: Math.round(entry.ms * 10) / 10,
      api: trace.api ?? 'other',
      store: trace.store ?? null,
      operation: trace.operation ?? null,
      ...(note ? { note } : {}),
      ...(trace.own ? { own: true as const } : {}),
    };
    const error = entry.envelope ?? (status !== null && status >= 400 && entry.responseBody ? envelopeError(entry.responseBody) : undefined);
    // The details echo values too (`must be a number, got "..."`): redacted like the message.
    if (error) summary.error = { code: error.code, message: this.redact(error.message).slice(0, 500), details: JSON.parse(this.redact(JSON.stringify(error.details))) as NonNullable<FeedSummary['error']>['details'] };
    entry.summary = summary;
    return summary;
  }

  /** The entries still held, oldest first; `after`: only those with a greater id (an SSE `Last-Event-ID`). */
  recent(after = 0): FeedSummary[] {
    const out: FeedSummary[] = [];
    const first = Math.max(after + 1, this.next - this.capacity);
    for (let id = first; id < this.next; id++) {
      const entry = this.ring[id % this.capacity];
      if (entry && entry.id === id) out.push(this.summaryOf(entry));
    }
    return out;
  }

  /** One entry with its headers (credentials masked) and bodies (bounded, redacted); undefined once dropped. */
  detail(id: number): FeedDetail | undefined {
    const entry = this.ring[id % this.capacity];
    if (!entry || entry.id !== id) return undefined;
    return {
      ...this.summaryOf(entry),
      request: { headers: maskHeaders(entry.requestHeaders, this.knownSecrets), ...this.body(entry.requestBody, entry.requestTruncated) },
      // A copy in the slab whose place a later one took (a request that took long to finish) is no longer held.
      response: { headers: maskHeaders(entry.responseHeaders, this.knownSecrets), ...this.body(entry.slabSeq !== undefined && this.slabNext - entry.slabSeq > this.slabPlaces ? undefined : entry.responseBody, entry.responseTruncated) },
      bodies_kept: entry.bodiesKept && !entry.overBudget,
      ...(!entry.bodiesKept
        ? { bodies_note: 'Bodies are kept only while a console page is open; this request was answered before (an error keeps its envelope, above).' }
        : entry.overBudget
          ? { bodies_note: `Its bodies were dropped: the log keeps ${Math.round(this.bodyBudget / 1024)} KB of bodies in all, the newest requests' first.` }
          : {}),
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
    let parsed = false;
    try {
      if (!truncated) {
        text = JSON.stringify(maskJson(JSON.parse(text)), null, 2);
        parsed = true;
      }
    } catch {
      // not JSON: shown as text, redacted by shape below
    }
    // A body cut at the bound, or malformed JSON (the 400 it got is what a page opens), is no JSON to parse:
    // its credential-like keys are masked in the text.
    if (!parsed) text = text.replace(SECRET_KEY_IN_TEXT, '"$1": "[masked]"').replace(CUSTOM_HEADERS_IN_TEXT, '"custom_headers": "[masked]"');
    return { body: `${this.redact(text)}${truncated ? TRUNCATED : ''}`, truncated };
  }

  private redact(text: string): string {
    let out = text.replace(SECRET_SHAPES, '[redacted]');
    for (const secret of this.knownSecrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
    return out;
  }
}

// SECRET_KEY's keys in a JSON text that could not be parsed (cut at the bound): their string value, even one cut short, or their scalar.
const SECRET_KEY_IN_TEXT = /"(secret|signing_secret|webhook_secret|access_token|refresh_token|token|password|api_key|apikey|otp|card_number|cvv)"\s*:\s*(?:"(?:[^"\\]|\\.)*"?|[^\s,}\]]+)/gi;
const CUSTOM_HEADERS_IN_TEXT = /"custom_headers"\s*:\s*\{[^}]*\}?/g;
// An HTTP credential by its scheme, whatever the header's name.
const CREDENTIAL_SCHEME = /^(basic|bearer|digest|token|apikey|hoba|negotiate|ntlm|aws4-hmac-sha256)\s+\S/i;

// The log's shapes (log.ts), in bodies: JWTs, this project's secrets and keys, the mock's tokens.
const SECRET_SHAPES = /eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*|whsec_[\w-]+|sk_[\w-]{8,}|mock_(?:refresh_)?[\w-]{16,}|sha256=[0-9a-f]{64}/g;
const SECRET_SHAPE = new RegExp(SECRET_SHAPES.source);

/**
 * Header values as a page may show them: credentials replaced, keeping an Authorization scheme. A header is a
 * credential by its name (`Authorization`, `X-Api-Key`, cookies, signatures, anything named like a secret or
 * a key), by its value's scheme (`Basic ...`, `Bearer ...`, under any name), or by its value itself: one that
 * holds a secret's shape (a store key `sk_...`, `whsec_...`, a JWT, the workbench's `mock_` tokens, a
 * signature) or one of the `known` secrets (the workbench's fixed keys and admin tokens), under any name:
 * a caller may send its store key as `X-Store-Auth` or `X-Partner-Key`.
 */
export function maskHeaders(headers: Readonly<Record<string, string | number | readonly string[] | undefined>>, known: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    // A credential under a name of the caller's own (`X-Partner-Auth: Basic ...`) is known by its scheme.
    const schemed = CREDENTIAL_SCHEME.exec(text)?.[1];
    if (schemed) {
      out[name] = `${schemed} [masked]`;
      continue;
    }
    if (SECRET_HEADER.test(name) || holdsSecret(text, known)) {
      const scheme = /^authorization$/i.test(name) ? /^(\w+)\s/.exec(text)?.[1] : undefined;
      out[name] = scheme ? `${scheme} [masked]` : '[masked]';
      continue;
    }
    out[name] = text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  }
  return out;
}

/** True when a header's value holds a secret by its shape or is (or contains) one of the known secrets. */
function holdsSecret(text: string, known: readonly string[]): boolean {
  if (SECRET_SHAPE.test(text)) return true;
  for (const secret of known) if (secret.length >= 4 && text.includes(secret)) return true;
  return false;
}

/** A parsed JSON body with the values under credential-like keys replaced. */
export function maskJson(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  // Deeper than this is not walked, so not shown: a credential down there would leave unmasked.
  if (depth > 50) return '[nested too deep to show]';
  if (Array.isArray(value)) return value.map((v) => maskJson(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (SECRET_KEY.test(key) && v !== null && v !== '') out[key] = '[masked]';
    // A webhook's custom headers carry the receiver's credentials (the Admin API itself answers only their names).
    else if (key === 'custom_headers' && v !== null && typeof v === 'object' && !Array.isArray(v)) out[key] = Object.fromEntries(Object.keys(v).map((name) => [name, '[masked]']));
    else out[key] = maskJson(v, depth + 1);
  }
  return out;
}

/**
 * The message, code and details of the contract's error envelope in a body, if it is one: the first 10
 * details, strings cut (before redaction, with room: the summary cuts the message at 500 after it).
 */
function envelopeError(bytes: Buffer): Envelope | undefined {
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as { success?: unknown; message?: unknown; content?: { error?: { code?: unknown; details?: unknown } } };
    if (parsed?.success !== false || typeof parsed.message !== 'string') return undefined;
    const error = parsed.content?.error;
    const cut = (v: unknown) => (typeof v === 'string' ? v.slice(0, 1000) : v);
    const details = Array.isArray(error?.details) ? error.details.slice(0, 10).map((d) => (d && typeof d === 'object' ? Object.fromEntries(Object.entries(d as Record<string, unknown>).map(([k, v]) => [k, cut(v)])) : d)) : [];
    return { message: parsed.message.slice(0, 2000), code: typeof error?.code === 'string' ? error.code.slice(0, 100) : '', details };
  } catch {
    return undefined;
  }
}

/** A Response's headers as a record (a copy, made only while a page watches). */
function headersRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
