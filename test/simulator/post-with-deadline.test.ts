// The attempt's exchange (workbench/simulator/post-with-deadline.ts) against a real receiver on loopback in
// another thread, so this thread can be made busy the way a loaded machine makes it: the time-out counts
// from the request being sent, never from before a stall that delayed the write; an answer that came while
// this thread was stalled past the deadline counts; no answer is a time-out no earlier than the deadline.
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryRules } from 'storefront-contract';
import { postWithDeadline } from '../../workbench/simulator/post-with-deadline.js';
import { closedPort } from '../helpers/closed-port.js';

// The receiver: answers after ?delay= ms with ?size= bytes (default "ok"), never with ?hang=1, or with its
// head and one chunk only with ?trickle=1; posts each request's arrival and its connection's close
// (performance.timeOrigin-based ms) back to this thread.
const receiverSource = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const now = () => performance.timeOrigin + performance.now();
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const arrived = now();
  req.socket.once('close', () => parentPort.postMessage({ kind: 'closed', path: url.pathname, arrived, closed: now() }));
  req.resume();
  req.on('end', () => {
    if (url.searchParams.get('hang')) return;
    if (url.searchParams.get('trickle')) return void res.writeHead(200).write('part');
    const size = Number(url.searchParams.get('size') ?? 0);
    setTimeout(() => res.end(size ? 'x'.repeat(size) : 'ok'), Number(url.searchParams.get('delay') ?? 0));
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ kind: 'port', port: server.address().port }));
parentPort.on('message', (m) => { if (m === 'stop') { server.closeAllConnections(); server.close(() => process.exit(0)); } });
`;

let worker: Worker;
let base: string;
const closes: Array<{ path: string; arrived: number; closed: number }> = [];
const agent = new Agent({ connections: 4 });

beforeAll(async () => {
  worker = new Worker(receiverSource, { eval: true });
  base = await new Promise<string>((resolve, reject) => {
    worker.on('message', (m: { kind: string; port?: number; path?: string; arrived?: number; closed?: number }) => {
      if (m.kind === 'port') resolve(`http://127.0.0.1:${m.port}`);
      else closes.push(m as (typeof closes)[number]);
    });
    worker.once('error', reject);
  });
});
afterAll(async () => {
  await agent.close();
  worker.postMessage('stop');
  await new Promise((resolve) => worker.once('exit', resolve));
});

/** Keeps this thread busy, as a loaded machine does: no timer, no socket read, nothing runs meanwhile. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

const body = Buffer.from('{"event":"order.created"}');
const post = (path: string, timeoutMs: number, maxBytes = 4096, signal?: AbortSignal) =>
  postWithDeadline(agent, `${base}${path}`, { headers: { 'content-type': 'application/json' }, body }, { timeoutMs, maxBytes, signal });

describe('postWithDeadline', () => {
  it('returns the status and the whole body of an answer within the time-out', async () => {
    const result = await post('/quick', 2000);
    expect(result).toMatchObject({ status: 200, complete: true, timedOut: false });
    expect(result.body.toString()).toBe('ok');
  });

  it('counts an answer that came during a stall of this thread past the deadline (the socket is read before the time-out is judged)', async () => {
    // Answer after 20 ms; this thread is busy from 5 ms to 405 ms, so the 100 ms deadline is due and the
    // answer is in the socket when the loop runs again.
    // The stall runs in the check phase (setImmediate): when the loop comes round, it refreshes its clock and
    // runs the due deadline before it polls the socket, as after a stall in any I/O callback. (A stall inside
    // a timer callback would not show it: the timer phase works from the clock read before the stall.)
    const pending = post('/during-stall?delay=20', 100);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        stall(400);
        resolve();
      }),
    );
    expect(await pending).toMatchObject({ status: 200, timedOut: false, complete: true });
  });

  it('starts the time-out when the request is sent: a stall before the write does not eat the receiver\'s time', async () => {
    // The request cannot be written while this thread is busy; the receiver answers 150 ms after it came,
    // within the 300 ms time-out, though 450 ms have passed since the call.
    const pending = post('/stall-before-write?delay=150', 300);
    stall(300);
    expect(await pending).toMatchObject({ status: 200, timedOut: false });
    // What the contract's delivery rules say it counts from (designed: register WH-024).
    expect(deliveryRules.timeoutFrom).toBe('request-sent');
  });

  it('times out a receiver that never answers, and closes the connection no earlier than the time-out after the request came', async () => {
    const result = await post('/hang?hang=1', 200);
    expect(result).toMatchObject({ status: null, timedOut: true, complete: false });
    await expect.poll(() => closes.find((c) => c.path === '/hang')).toBeDefined();
    const seen = closes.find((c) => c.path === '/hang')!;
    // The arrival is stamped after the write: the deadline counts from the write, so it cannot end sooner.
    expect(seen.closed - seen.arrived).toBeGreaterThanOrEqual(200 - 5);
  });

  it('reads at most about maxBytes of a long body and says it is incomplete; a body under the bound is complete', async () => {
    const long = await post('/long?size=200000', 2000, 1000);
    expect(long).toMatchObject({ status: 200, complete: false, timedOut: false });
    expect(long.body.length).toBeGreaterThanOrEqual(1000);
    expect(long.body.length).toBeLessThan(200_000);
    const short = await post('/short?size=999', 2000, 1000);
    expect(short).toMatchObject({ status: 200, complete: true });
    expect(short.body.length).toBe(999);
  });

  it('keeps the status when the deadline ends the body: the answer came in time, its excerpt is what came', async () => {
    // A status at once, then a body that never ends: the receiver writes the head and one chunk.
    const result = await post('/partial?trickle=1', 150);
    expect(result).toMatchObject({ status: 200, complete: false, timedOut: false });
    expect(result.body.toString()).toBe('part');
  });

  it('ends as a failure, not a time-out, when aborted (a shutdown) before the answer', async () => {
    const controller = new AbortController();
    const pending = post('/abort?hang=1', 5000, 4096, controller.signal);
    setTimeout(() => controller.abort(new Error('simulator shutting down')), 50);
    const result = await pending;
    expect(result).toMatchObject({ status: null, timedOut: false });
    expect(String(result.error)).toContain('simulator shutting down');
    const already = new AbortController();
    already.abort();
    expect(await post('/already?hang=1', 5000, 4096, already.signal)).toMatchObject({ status: null, timedOut: false });
  });

  it('reports a refused connection as an error, not a time-out', async () => {
    const port = await closedPort();
    const result = await postWithDeadline(agent, `http://127.0.0.1:${port}/`, { headers: {}, body }, { timeoutMs: 2000, maxBytes: 10 });
    expect(result.status).toBeNull();
    expect(result.timedOut).toBe(false);
    expect((result.error as { code?: string }).code).toBe('ECONNREFUSED');
  });
});
