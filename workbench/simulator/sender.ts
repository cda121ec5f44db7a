// One attempt's HTTP exchange (deliver.ts builds and signs it): POSTed with undici on one Agent, redirects
// never followed (undici's `request` follows none), one deadline (the scaled time-out) covering connection,
// answer and the excerpt of the body, and every failure back as an error class of the delivery log instead
// of a throw. Used on the main thread or on the sending thread (send-worker.ts), which loads only this file
// (no catalog, no signing) so that thread starts fast.
import net from 'node:net';
import type { Agent } from 'undici';
import type { ErrorClass } from './store.js';
import { BlockedAddressError, guardedLookup, hostOf, isBlockedAddress } from './url-policy.js';

/** What goes on the wire: built and signed by deliver.ts (`signAttempt`, `signBody`). */
export interface SignedAttempt {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  /** Values that must not reach the delivery log even if the receiver echoes them: custom header values (write-only) and the signature. */
  writeOnly: string[];
}

/** `WebhookDelivery.response_body_excerpt` holds at most this many characters (its maxLength in the admin spec). */
export const EXCERPT_CHARS = 1024;
// A UTF-8 character is at most 4 bytes: this many bytes always decode to more than EXCERPT_CHARS when the
// body is that long, so `truncated` is exact without reading a large body to its end.
const EXCERPT_BYTES = EXCERPT_CHARS * 4 + 4;

export interface SendResult {
  responseStatus: number | null;
  errorClass: ErrorClass | null;
  excerpt: string | null;
  truncated: boolean;
}

export interface Sender {
  send(attempt: SignedAttempt): Promise<SendResult>;
  /**
   * A sender that needs starting (the sending thread) says whether it can send at once, and starts when
   * asked; the scheduler claims nothing before it is ready, so a claim's lease never runs while the sender
   * is still starting. Absent: always ready.
   */
  isReady?(): boolean;
  warmUp?(): Promise<void>;
  /** Aborts every attempt in flight (shutdown); each comes back as a failed attempt. */
  abortAll(): void;
  close(): Promise<void>;
}

// undici is loaded with the first attempt, not at start: loading it is about a seventh of the workbench's
// start-up, and most sessions deliver nothing in their first second (bench/NOTES.md).
let undici: Promise<typeof import('undici')> | undefined;

export function createSender(options: { timeoutMs: number; denyPrivate: boolean; connections: number }): Sender {
  let client: Promise<{ agent: Agent; request: (typeof import('undici'))['request'] }> | undefined;
  const connect = () =>
    (client ??= (undici ??= import('undici')).then(({ Agent, request }) => ({
      request,
      agent: new Agent({
        connections: options.connections,
        pipelining: 1,
        // Backstops of the attempt's own deadline below; a bit later so the deadline is what normally fires.
        headersTimeout: Math.ceil(options.timeoutMs) + 1000,
        bodyTimeout: Math.ceil(options.timeoutMs) + 1000,
        connect: { timeout: Math.max(1, Math.ceil(options.timeoutMs)), ...(options.denyPrivate ? { lookup: guardedLookup as never } : {}) },
      }),
    })));

  // Controllers of the attempts in flight, so a shutdown can abort them all without every attempt
  // subscribing to a shared signal.
  const inFlight = new Set<AbortController>();

  async function send(attempt: SignedAttempt): Promise<SendResult> {
    if (options.denyPrivate) {
      // net.connect skips `lookup` for a literal IP, so literal addresses are judged here.
      const host = hostOf(new URL(attempt.url));
      if (net.isIP(host) && isBlockedAddress(host)) return failure('blocked_address');
    }

    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort(new Error('attempt timed out'));
    }, options.timeoutMs);
    inFlight.add(deadline);
    try {
      let res;
      try {
        const { agent, request } = await connect();
        res = await request(attempt.url, { method: 'POST', headers: attempt.headers, body: attempt.body, dispatcher: agent, signal: deadline.signal });
      } catch (e) {
        return failure(timedOut ? 'timeout' : classify(e));
      }
      const { excerpt, truncated } = await readExcerpt(res.body);
      return { responseStatus: res.statusCode, errorClass: null, excerpt: hideWriteOnly(excerpt, attempt.writeOnly), truncated };
    } finally {
      clearTimeout(timer);
      inFlight.delete(deadline);
    }
  }

  return {
    send,
    abortAll: () => {
      for (const c of inFlight) c.abort(new Error('simulator shutting down'));
    },
    close: async () => {
      if (client) await (await client).agent.close();
    },
  };
}

/**
 * A receiver that echoes its request would put the subscription's write-only values into
 * `GET /webhooks/deliveries`; they are replaced before the excerpt is stored. Values shorter than 4
 * characters are left alone: replacing them would garble the excerpt and they hide nothing.
 */
export function hideWriteOnly(excerpt: string, values: readonly string[]): string {
  let out = excerpt;
  for (const value of values) if (value.length >= 4) out = out.split(value).join('[redacted]');
  return out;
}

function failure(errorClass: ErrorClass): SendResult {
  return { responseStatus: null, errorClass, excerpt: null, truncated: false };
}

// Not fatal: invalid bytes become U+FFFD, as the log's excerpt is described.
const decoder = new TextDecoder('utf-8');

/**
 * The first EXCERPT_CHARS characters of the body; stops reading (and drops the rest) past that. Read with
 * 'data' events rather than `for await`: an async iterator costs a few promises per chunk, and every
 * attempt reads one (bench/NOTES.md, fan-out).
 */
function readExcerpt(body: NodeJS.ReadableStream & { destroy(): void }): Promise<{ excerpt: string; truncated: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (complete: boolean) => {
      if (settled) return;
      settled = true;
      body.destroy();
      const text = decoder.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
      // At most EXCERPT_CHARS UTF-16 units is at most that many characters: the common, short answer.
      if (text.length <= EXCERPT_CHARS) return resolve({ excerpt: text, truncated: !complete });
      const chars = Array.from(text);
      resolve({ excerpt: chars.slice(0, EXCERPT_CHARS).join(''), truncated: !complete || chars.length > EXCERPT_CHARS });
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT_BYTES) finish(false);
    });
    body.on('end', () => finish(true));
    // The deadline ran out (or the peer hung up) after the status arrived: the status stands, the excerpt
    // is what came.
    body.on('error', () => finish(false));
    body.on('close', () => finish(false));
  });
}

/** Maps a transport error to the log's error class. */
export function classify(error: unknown): ErrorClass {
  const seen = new Set<unknown>();
  let e = error as { code?: string; name?: string; cause?: unknown } | undefined;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    if (e instanceof BlockedAddressError) return 'blocked_address';
    const code = e.code ?? '';
    if (code === 'ERR_SIMULATOR_BLOCKED_ADDRESS') return 'blocked_address';
    if (code === 'ECONNREFUSED') return 'connection_refused';
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return 'connection_reset';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA') return 'dns_error';
    if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT') return 'timeout';
    if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return 'tls_error';
    e = e.cause as typeof e;
  }
  return 'network_error';
}
