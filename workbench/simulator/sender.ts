// One attempt's HTTP exchange (deliver.ts builds and signs it): POSTed with undici on one Agent, redirects
// never followed, the connection bounded by the agent's connect time-out and the answer and the excerpt of
// its body by the scaled time-out counted from the request being sent (post-with-deadline.ts), and every
// failure back as an error class of the delivery log instead of a throw. Used on the main thread or on the sending thread (send-worker.ts), which loads only this file
// (no catalog, no signing) so that thread starts fast.
import net from 'node:net';
import type { Agent } from 'undici';
import type { ErrorClass } from './store.js';
import { postWithDeadline } from './post-with-deadline.js';
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
  let client: Promise<Agent> | undefined;
  const connect = () =>
    (client ??= (undici ??= import('undici')).then(
      ({ Agent }) =>
        new Agent({
          connections: options.connections,
          pipelining: 1,
          // Backstops of the attempt's own deadline below; a bit later so the deadline is what normally fires.
          headersTimeout: Math.ceil(options.timeoutMs) + 1000,
          bodyTimeout: Math.ceil(options.timeoutMs) + 1000,
          connect: { timeout: Math.max(1, Math.ceil(options.timeoutMs)), ...(options.denyPrivate ? { lookup: guardedLookup as never } : {}) },
        }),
    ));

  // Controllers of the attempts in flight, so a shutdown can abort them all without every attempt
  // subscribing to a shared signal.
  const inFlight = new Set<AbortController>();

  async function send(attempt: SignedAttempt): Promise<SendResult> {
    if (options.denyPrivate) {
      // net.connect skips `lookup` for a literal IP, so literal addresses are judged here.
      const host = hostOf(new URL(attempt.url));
      if (net.isIP(host) && isBlockedAddress(host)) return failure('blocked_address');
    }

    const shutdown = new AbortController();
    inFlight.add(shutdown);
    try {
      const agent = await connect();
      const result = await postWithDeadline(agent, attempt.url, { headers: attempt.headers, body: attempt.body }, { timeoutMs: options.timeoutMs, maxBytes: EXCERPT_BYTES, signal: shutdown.signal });
      if (result.status === null) return failure(result.timedOut ? 'timeout' : classify(result.error));
      const { excerpt, truncated } = excerptOf(result.body, result.complete);
      return { responseStatus: result.status, errorClass: null, excerpt: hideWriteOnly(excerpt, attempt.writeOnly), truncated };
    } finally {
      inFlight.delete(shutdown);
    }
  }

  return {
    send,
    abortAll: () => {
      for (const c of inFlight) c.abort(new Error('simulator shutting down'));
    },
    close: async () => {
      if (client) await (await client).close();
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
 * The first EXCERPT_CHARS characters of what was read (at most EXCERPT_BYTES and the chunk that ran past
 * them); `complete` is whether the body was read to its end.
 */
function excerptOf(bytes: Buffer, complete: boolean): { excerpt: string; truncated: boolean } {
  const text = decoder.decode(bytes);
  // At most EXCERPT_CHARS UTF-16 units is at most that many characters: the common, short answer.
  if (text.length <= EXCERPT_CHARS) return { excerpt: text, truncated: !complete };
  const chars = Array.from(text);
  return { excerpt: chars.slice(0, EXCERPT_CHARS).join(''), truncated: !complete || chars.length > EXCERPT_CHARS };
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
