// The validating proxy's judge on a thread of its own (proxy.ts starts it): the proxy's thread only
// forwards and copies, and this one decodes, writes the HAR and judges (session.ts), so judging a 600 KB
// page (its JSON parse alone is a millisecond and a half) is not in the way of the next request. Messages:
// `exchange` (answered with `observed`: the lines to print), `failed` and `dropped` (counted), `summary`
// and `close` (answered with a `reply` of the same id).
import { parentPort, workerData } from 'node:worker_threads';
import type { CapturedBody, ForwardedExchange } from '../recorder/proxy.js';
import { ProxySession, type SessionOptions, type Unjudged } from './session.js';

export type ToJudge =
  | { kind: 'exchange'; exchange: ForwardedExchange; unjudged?: Unjudged }
  | { kind: 'failed'; note: string }
  | { kind: 'dropped'; n: number }
  | { kind: 'summary' | 'report' | 'close'; id: number };

export type FromJudge = { kind: 'observed'; violations: import('./judge.js').Violation[]; notes: string[] } | { kind: 'reply'; id: number; value: unknown };

const session = new ProxySession(workerData as SessionOptions);
const port = parentPort!;

/** A Buffer again: structured cloning hands a Uint8Array over. */
function buffers(body: CapturedBody): CapturedBody {
  const wrap = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return { ...body, head: wrap(body.head), ...(body.bytes ? { bytes: wrap(body.bytes) } : {}) };
}

port.on('message', (message: ToJudge) => {
  let reply: FromJudge;
  try {
    if (message.kind === 'exchange') {
      const exchange = { ...message.exchange, requestBody: buffers(message.exchange.requestBody), responseBody: buffers(message.exchange.responseBody) };
      reply = { kind: 'observed', ...session.observe(exchange, message.unjudged) };
    } else if (message.kind === 'failed') {
      session.failed();
      reply = { kind: 'observed', violations: [], notes: [session.scrub(message.note)] };
    } else if (message.kind === 'dropped') {
      session.dropped(message.n);
      return;
    } else if (message.kind === 'summary') {
      reply = { kind: 'reply', id: message.id, value: session.summary() };
    } else if (message.kind === 'report') {
      reply = { kind: 'reply', id: message.id, value: session.certificate() };
    } else {
      session.close();
      reply = { kind: 'reply', id: message.id, value: session.certificate() };
    }
  } catch (error) {
    // A bug of the judge: reported as a note; the traffic went through already.
    reply = 'id' in message ? { kind: 'reply', id: message.id, value: { error: (error as Error).message } } : { kind: 'observed', violations: [], notes: [`proxy: judging an exchange failed (a bug of the proxy; the exchange was passed through): ${(error as Error).message}`] };
  }
  port.postMessage(reply);
});
