// The validating proxy's judge on a thread of its own (proxy.ts starts it): the proxy's thread only
// forwards and copies, and this one decodes, writes the HAR and judges (session.ts), so judging a 600 KB
// page (its JSON parse alone is a millisecond and a half) is not in the way of the next request. Messages:
// `exchange` and `failed` (acknowledged by `observed`, which carries the lines to print: at once when there
// are lines, else together with other quiet exchanges), `dropped` (counted), `summary`, `report` and
// `close` (answered with a `reply` of the same id, after every line before them).
import { parentPort, workerData } from 'node:worker_threads';
import type { CapturedBody, ForwardedExchange } from '../recorder/proxy.js';
import type { Violation } from './judge.js';
import { ProxySession, type Observed, type SessionOptions, type Unjudged } from './session.js';

/** Quiet exchanges acknowledged together: at most this many, or after this long. */
const MAX_UNACKED = 32;
const ACK_AFTER_MS = 20;

export type ToJudge =
  | { kind: 'exchange'; exchange: ForwardedExchange; unjudged?: Unjudged }
  | { kind: 'failed'; note: string }
  | { kind: 'dropped'; n: number }
  | { kind: 'summary' | 'report' | 'close'; id: number };

/** `observed`: the lines of the exchanges judged since the last one, and how many that was (the queue's acknowledgement). */
export type FromJudge = { kind: 'observed'; done: number; violations: Violation[]; notes: string[] } | { kind: 'reply'; id: number; value: unknown };

const session = new ProxySession(workerData as SessionOptions);
const port = parentPort!;

// Exchanges judged and not yet acknowledged: sent back once a turn of this thread's loop, so a quiet
// exchange costs the proxy's thread no wake-up of its own.
let done = 0;
let violations: Violation[] = [];
let notes: string[] = [];
let flushing = false;
function flush(): void {
  flushing = false;
  if (!done) return;
  port.postMessage({ kind: 'observed', done, violations, notes } satisfies FromJudge);
  done = 0;
  violations = [];
  notes = [];
}
function settle(observed: Observed): void {
  done++;
  violations.push(...observed.violations);
  notes.push(...observed.notes);
  // Lines go out at once; a quiet exchange waits for the next flush (at most MAX_UNACKED of them).
  if (observed.violations.length || observed.notes.length || done >= MAX_UNACKED) flush();
  else if (!flushing) {
    flushing = true;
    setTimeout(flush, ACK_AFTER_MS);
  }
}

/** A Buffer again: structured cloning hands a Uint8Array over. */
function buffers(body: CapturedBody): CapturedBody {
  const wrap = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return { ...body, head: wrap(body.head), ...(body.bytes ? { bytes: wrap(body.bytes) } : {}) };
}

port.on('message', (message: ToJudge) => {
  try {
    if (message.kind === 'exchange') {
      const exchange = { ...message.exchange, requestBody: buffers(message.exchange.requestBody), responseBody: buffers(message.exchange.responseBody) };
      settle(session.observe(exchange, message.unjudged));
    } else if (message.kind === 'failed') {
      session.failed();
      settle({ violations: [], notes: [session.scrub(message.note)] });
    } else if (message.kind === 'dropped') {
      session.dropped(message.n);
    } else {
      // Replies come after every line before them.
      flush();
      if (message.kind === 'close') session.close();
      port.postMessage({ kind: 'reply', id: message.id, value: message.kind === 'summary' ? session.summary() : session.certificate() } satisfies FromJudge);
    }
  } catch (error) {
    // A bug of the judge: reported as a note; the traffic went through already.
    if ('id' in message) port.postMessage({ kind: 'reply', id: message.id, value: { error: (error as Error).message } } satisfies FromJudge);
    else settle({ violations: [], notes: [`proxy: judging an exchange failed (a bug of the proxy; the exchange was passed through): ${(error as Error).message}`] });
  }
});
