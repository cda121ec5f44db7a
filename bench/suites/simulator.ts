// Issue 6 benchmark: how fast the webhook simulator delivers, against the floor of plain HTTP. Subject:
// 1,000 order.created events raised in process (example + validation + SQLite insert), fanned out to 5
// subscriptions on one loopback receiver: 5,000 signed attempts, each claimed in SQLite, signed, POSTed and
// recorded. Baseline: the same 5,000 bodies with the same headers POSTed with plain undici `request` at the
// same concurrency, in the same run, to the same receiver. Several rounds alternate which side runs first;
// the median of each side counts. Measured twice: with the in-memory store (the default) and with a
// --data-dir store (a SQLite file on disk, as `npm start -- --data-dir` runs it).
import { median } from '../lib/alternate.js';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { metric, type BenchSuite, type Metric } from '../lib/metric.js';
import { createSimulator } from '../../workbench/simulator/index.js';

const EVENTS = 1000;
const SUBSCRIPTIONS = 5;
const CONCURRENCY = 64;
const ROUNDS = 3;
const STORE = 'bench-store';

interface Sent {
  body: Buffer;
  headers: Record<string, string>;
}

const suite: BenchSuite = {
  name: 'simulator',
  async run() {
    const memory = await measure(undefined);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-simulator-'));
    try {
      return [...memory, ...(await measure(dir))];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/** One side-by-side measurement; `sendOn` picks where the simulator's HTTP exchanges run (bench/tools/simulator-ab.ts). */
export async function measure(dataDir: string | undefined, sendOn?: 'thread' | 'main', rounds = ROUNDS): Promise<Metric[]> {
  let keep: Sent[] | undefined;
  let received = 0;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received++;
      if (keep && req.headers['x-svc-signature']) {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (!['host', 'connection', 'content-length'].includes(k) && typeof v === 'string') headers[k] = v;
        keep.push({ body: Buffer.concat(chunks), headers });
      }
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const sim = createSimulator({ concurrency: CONCURRENCY, dataDir, sendOn });
  let delivered = 0;
  let failed = 0;
  let waiter: { target: number; resolve: () => void } | undefined;
  sim.onAttempt((d) => {
    if (d.outcome === 'delivered') delivered++;
    else failed++;
    if (waiter && delivered >= waiter.target) {
      waiter.resolve();
      waiter = undefined;
    }
  });
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const reply = await sim.service.createWebhook(STORE, { url, events: ['order.created'] });
    if (reply.status !== 201) throw new Error(`bench: createWebhook answered ${reply.status}`);
  }

  const cpu = { subject: 0, baseline: 0 };
  const cpuSince = (start: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(start);
    return used.user + used.system;
  };
  async function subjectRound(events: number): Promise<number> {
    const target = delivered + events * SUBSCRIPTIONS;
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const done = new Promise<void>((resolve) => (waiter = { target, resolve }));
    // Events are raised in batches of CONCURRENCY with a turn of the event loop between them, as a
    // service raises them while it delivers; all of them still go through the simulator's full path.
    for (let i = 0; i < events; i++) {
      sim.trigger(STORE, 'order.created', { order_number: `SO-B${i}` });
      if (i % CONCURRENCY === CONCURRENCY - 1) await new Promise((r) => setImmediate(r));
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`bench: simulator round timed out (${failed} attempts failed)`)), 120_000)))]);
    clearTimeout(timer);
    if (failed) throw new Error(`bench: ${failed} simulator attempts failed`);
    cpu.subject = cpuSince(cpuStart) / (events * SUBSCRIPTIONS);
    return (events * SUBSCRIPTIONS) / ((performance.now() - started) / 1000);
  }

  const agent = new Agent({ connections: CONCURRENCY, pipelining: 1 });
  async function baselineRound(bodies: Sent[]): Promise<number> {
    let next = 0;
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bodies.length) {
          const item = bodies[next++];
          const res = await request(url, { method: 'POST', headers: item.headers, body: item.body, dispatcher: agent });
          await res.body.text();
          if (res.statusCode !== 200) throw new Error(`bench: baseline got ${res.statusCode}`);
        }
      }),
    );
    cpu.baseline = cpuSince(cpuStart) / bodies.length;
    return bodies.length / ((performance.now() - started) / 1000);
  }

  try {
    await subjectRound(50); // warm-up: JIT, connections, SQLite statements
    keep = [];
    await subjectRound(EVENTS);
    const bodies = keep;
    keep = undefined;
    if (bodies.length !== EVENTS * SUBSCRIPTIONS) throw new Error(`bench: captured ${bodies.length} bodies`);
    await baselineRound(bodies.slice(0, 250)); // warm-up

    const subject: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        subject.push(await subjectRound(EVENTS));
        baseline.push(await baselineRound(bodies));
      } else {
        baseline.push(await baselineRound(bodies));
        subject.push(await subjectRound(EVENTS));
      }
    }
    const avgBytes = bodies.reduce((n, b) => n + b.body.length, 0) / bodies.length;
    return [
      metric({
        id: dataDir ? 'simulator.fanout1000x5.dataDir.vs.undiciPost' : 'simulator.fanout1000x5.vs.undiciPost',
        description: `deliveries per second: ${EVENTS} order.created events fanned out to ${SUBSCRIPTIONS} subscriptions on a loopback receiver (raise + validate + SQLite claim + sign + POST + record), vs plain undici POSTs of the same ${EVENTS * SUBSCRIPTIONS} bodies`,
        unit: 'deliveries/s (median)',
        subject: { label: 'createSimulator().trigger -> delivered', value: Math.round(median(subject)) },
        baseline: { label: `undici request, ${CONCURRENCY} in flight`, value: Math.round(median(baseline)) },
        // The target is on the durable store (--data-dir); the in-memory one keeps the earlier bar.
        target: { op: '>=', ratio: dataDir ? 0.6 : 0.5 },
        notes: `concurrency ${CONCURRENCY} both sides; ${rounds} rounds; sending on ${sendOn ?? 'thread'} (subject ${subject.map(Math.round).join('/')}, baseline ${baseline.map(Math.round).join('/')}); events raised in batches of ${CONCURRENCY}; ${dataDir ? 'SQLite file store (--data-dir)' : 'in-memory store'}; body ~${Math.round(avgBytes)} B; receiver requests ${received}; CPU of this process per delivery in the last round (receiver included, both sides): subject ${cpu.subject.toFixed(0)} µs, baseline ${cpu.baseline.toFixed(0)} µs`,
      }),
    ];
  } finally {
    await sim.close();
    await agent.close();
    await new Promise<void>((resolve) => {
      receiver.close(() => resolve());
      receiver.closeAllConnections();
    });
  }
}

export default suite;
