// A claim's lease guards against a sender that died (restart.test.ts, kill.test.ts); a live one keeps its
// claim. Here the simulator's process is made too busy to read its receiver's 200 before the lease ends: the
// attempt is still being sent by this process, so its lease is renewed, the 200 is recorded, and the event is
// not sent again. (Settled as expired, the attempt counted as failed and its event was retried after the
// receiver had accepted it: "attempt 3 came 4.948 s after a 200" under load.)
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhook, deliveries, freshStore, startWorkbench, waitFor, type Bench } from './helpers.js';

// The receiver, on its own thread so it answers while this one is busy: 200 after 50 ms; it posts 'got'
// when a request arrives, and its count of requests when asked.
const receiverSource = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
let count = 0;
const server = http.createServer((req, res) => {
  count++;
  parentPort.postMessage({ kind: 'got' });
  req.resume();
  req.on('end', () => setTimeout(() => res.end('ok'), 50));
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ kind: 'port', port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'count') parentPort.postMessage({ kind: 'count', count });
  if (m === 'stop') { server.closeAllConnections(); server.close(() => process.exit(0)); }
});
`;

/** Keeps this thread busy: no timer, no socket read, nothing else runs meanwhile. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

// Sending on this thread (not the sending thread), with a 200 ms time-out: the lease is 200 ms + 2 s.
const TIMEOUT_MS = 200;
const LEASE_MS = TIMEOUT_MS + 2000;

let bench: Bench;
let worker: Worker;
let url: string;
beforeAll(async () => {
  bench = await startWorkbench({ sendOn: 'main', timeoutMs: TIMEOUT_MS });
  worker = new Worker(receiverSource, { eval: true });
  url = await new Promise<string>((resolve, reject) => {
    const onPort = (m: { kind: string; port?: number }) => {
      if (m.kind !== 'port') return;
      worker.off('message', onPort);
      resolve(`http://127.0.0.1:${m.port}/hook`);
    };
    worker.on('message', onPort);
    worker.once('error', reject);
  });
});
afterAll(async () => {
  worker?.postMessage('stop');
  if (worker) await new Promise((resolve) => worker.once('exit', resolve));
  await bench?.close();
});

const receivedCount = () =>
  new Promise<number>((resolve) => {
    const onCount = (m: { kind: string; count?: number }) => {
      if (m.kind !== 'count') return;
      worker.off('message', onCount);
      resolve(m.count!);
    };
    worker.on('message', onCount);
    worker.postMessage('count');
  });

describe('a lease held by a live sender', () => {
  it('is renewed while this process is too busy to read the 200: the attempt is delivered once, never retried', async () => {
    const store = freshStore('lease');
    await createWebhook(bench.server, store, { url, events: ['order.created'] });
    // When the request reaches the receiver, this thread stalls past the lease; the 200 comes meanwhile.
    const stalled = new Promise<void>((resolve) => {
      const onGot = (m: { kind: string }) => {
        if (m.kind !== 'got') return;
        worker.off('message', onGot);
        stall(LEASE_MS + 600);
        resolve();
      };
      worker.on('message', onGot);
    });
    bench.sim.trigger(store, 'order.created');
    await stalled;
    const rows = await waitFor(async () => ((x) => x.length >= 1 && x.every((r) => r.status !== 'in_flight' && r.status !== 'scheduled') && x)(await deliveries(bench.server, store)), 'the attempt settled');
    expect(rows.map((r) => [r.status, r.response_status])).toEqual([['succeeded', 200]]);
    expect(await receivedCount()).toBe(1);
  });
});
