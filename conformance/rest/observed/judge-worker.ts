// The validating proxy's second thread (proxy.ts starts it): it judges the large answers the proxy hands it
// (session.ts `Offloaded`: the answer as plain data and its body's bytes, moved, not copied), so decoding and
// parsing a 600 KB page (1.5 ms for its JSON parse alone) is not in the way of the next request on the
// proxy's thread. It keeps nothing: the secrets, the tally and the HAR stay with the proxy, which scrubs
// and keeps what this thread hands back (`Judged`: each rule's judgement, or why the body was not judged).
import { parentPort } from 'node:worker_threads';
import { decodeBody } from '../http.js';
import { judgeAnswer, trafficRules } from './judge.js';
import type { Judged, Offloaded } from './session.js';

const port = parentPort!;

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
