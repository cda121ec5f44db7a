// The simulator's sending thread (send-thread.ts starts it): it runs the attempts the main thread claimed,
// signed and handed over, with the one sender of deliver.ts (its deadline, no redirects, --deny-private in
// the connection's DNS lookup, its error classes), and hands each answer back. It keeps nothing and
// decides nothing: claims, answers, retries and the store stay on the main thread, so a crash here only
// loses answers, and their claims are settled by the lease like after a kill -9.
import { parentPort, workerData } from 'node:worker_threads';
import { createSender, type SendResult, type SignedAttempt } from './sender.js';
import type { ToSender, FromSender } from './send-thread.js';

const port = parentPort!;
const sender = createSender(workerData as { timeoutMs: number; denyPrivate: boolean; connections: number });

// Answers of one turn go back in one message.
let answers: Array<[number, SendResult]> = [];
let queued = false;
function answer(id: number, result: SendResult): void {
  answers.push([id, result]);
  if (queued) return;
  queued = true;
  setImmediate(() => {
    queued = false;
    const batch = answers;
    answers = [];
    port.postMessage({ answers: batch } satisfies FromSender);
  });
}

port.on('message', (message: ToSender) => {
  if (message.attempts) {
    for (const [id, url, body, headers, writeOnly] of message.attempts) {
      const attempt: SignedAttempt = { url, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength), headers, writeOnly };
      sender.send(attempt).then(
        (result) => answer(id, result),
        () => answer(id, { responseStatus: null, errorClass: 'network_error', excerpt: null, truncated: false }),
      );
    }
  }
  if (message.abortAll) sender.abortAll();
  if (message.close) {
    void sender.close().finally(() => port.postMessage({ closed: true } satisfies FromSender));
  }
});

// Ready once undici is loaded too (the sender loads it with its first attempt, inside that attempt's
// deadline): the main thread claims nothing before this.
await import('undici');
port.postMessage({ ready: true } satisfies FromSender);
