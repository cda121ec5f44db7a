// The validating proxy's second thread (proxy.ts starts it): it judges the large answers the proxy hands it
// (session.ts `Offloaded`: the answer as plain data and its body's bytes, moved, not copied), so decoding and
// parsing a 600 KB page (1.5 ms for its JSON parse alone) is not in the way of the next request on the
// proxy's thread. It keeps nothing: the secrets, the tally and the HAR stay with the proxy, which scrubs
// and keeps what this thread hands back (`Judged`: each rule's judgement, or why the body was not judged).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { decodeBody } from '../http.js';
import { judgeAnswer, trafficRules } from './judge.js';
import type { Judged, Offloaded } from './session.js';

const port = parentPort!;

/**
 * Judging is background work: this thread runs at the lowest CPU priority (nice 19), so on a busy machine
 * the forwarding thread, the client and the upstream get the cores first and judging takes what is left
 * (the proxy's bounded queue then passes large answers through unjudged, as advice, rather than delay
 * traffic). On Linux a thread has its own nice value, set through its thread id (`/proc/thread-self`);
 * elsewhere, or where it is refused, the thread keeps the process's priority.
 */
function lowerThisThreadsPriority(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return undefined;
    setPriority(tid, 19);
    return tid;
  } catch {
    return undefined;
  }
}
lowerThisThreadsPriority();

port.on('message', (message: Offloaded) => {
  let reply: Judged;
  try {
    const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    const decoded = decodeBody(bytes, message.encoding, message.maxBytes);
    reply = decoded.error
      ? { id: message.id, omitted: decoded.tooLarge ? `the body decoded is over the proxy's limit of ${message.maxBytes} bytes` : decoded.error }
      : { id: message.id, judgements: judgeAnswer(message.answer, decoded.bytes.toString('utf8'), trafficRules, { strict: message.strict }) };
  } catch (error) {
    // A bug of the judge: the exchange is reported as not judged; the traffic went through already.
    reply = { id: message.id, omitted: `judging it failed (a bug of the proxy: ${(error as Error).message})` };
  }
  port.postMessage(reply);
});
