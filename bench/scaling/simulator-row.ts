// One row of the simulator scaling table, in a process of its own so its memory is its own:
//   node --import tsx bench/scaling/simulator-row.ts <events> <subscriptions> <dataDir>
// Raises <events> order.created events on a durable store (--data-dir), fanned out to <subscriptions>
// subscriptions on one loopback receiver, with at most WINDOW events outstanding (closed loop: the
// latency is an attempt's, not the queue's), and prints one JSON line: deliveries/s, p50/p99 of raise ->
// delivered, peak RSS and heap, and the data directory's size at the end.
import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createSimulator } from '../../workbench/simulator/index.js';

const [events, subscriptions] = process.argv.slice(2, 4).map(Number);
const dataDir = process.argv[4];
if (!(events > 0 && subscriptions > 0 && dataDir)) {
  console.error('simulator-row: usage: simulator-row.ts <events> <subscriptions> <dataDir>');
  process.exit(2);
}
const WINDOW = 64;
const STORE = 'scaling-store';

const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok'));
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const sim = createSimulator({ concurrency: 64, dataDir });
for (let i = 0; i < subscriptions; i++) await sim.service.createWebhook(STORE, { url, events: ['order.created'] });

const raisedAt = new Map<string, number>();
const pendingPerEvent = new Map<string, number>();
const latencies = new Float64Array(events * subscriptions);
let delivered = 0;
let failed = 0;
let outstanding = 0;
let peakRss = 0;
let peakHeap = 0;
let wake: (() => void) | undefined;
sim.onAttempt((d) => {
  if (d.outcome !== 'delivered') {
    failed++;
    return;
  }
  latencies[delivered++] = performance.now() - raisedAt.get(d.event_id)!;
  const left = pendingPerEvent.get(d.event_id)! - 1;
  if (left === 0) {
    pendingPerEvent.delete(d.event_id);
    raisedAt.delete(d.event_id);
    outstanding--;
    wake?.();
  } else pendingPerEvent.set(d.event_id, left);
});
const sample = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 100);

const started = performance.now();
for (let i = 0; i < events; i++) {
  while (outstanding >= WINDOW) await new Promise<void>((resolve) => (wake = resolve));
  const { event_id } = sim.trigger(STORE, 'order.created', { order_number: `SO-S${i}` });
  raisedAt.set(event_id, performance.now());
  pendingPerEvent.set(event_id, subscriptions);
  outstanding++;
  if (failed) throw new Error(`simulator-row: ${failed} attempts failed`);
}
while (outstanding > 0) await new Promise<void>((resolve) => (wake = resolve));
const seconds = (performance.now() - started) / 1000;
clearInterval(sample);
const m = process.memoryUsage();
peakRss = Math.max(peakRss, m.rss);
peakHeap = Math.max(peakHeap, m.heapUsed);
await sim.close();
receiver.close();
receiver.closeAllConnections();

const sorted = Array.from(latencies.subarray(0, delivered)).sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const dirBytes = readdirSync(dataDir).reduce((n, f) => n + statSync(path.join(dataDir, f)).size, 0);
console.log(
  JSON.stringify({
    events,
    subscriptions,
    deliveries: delivered,
    seconds: Number(seconds.toFixed(2)),
    deliveriesPerSecond: Math.round(delivered / seconds),
    p50Ms: Number(at(0.5).toFixed(1)),
    p99Ms: Number(at(0.99).toFixed(1)),
    peakRssMB: Number((peakRss / 2 ** 20).toFixed(1)),
    peakHeapMB: Number((peakHeap / 2 ** 20).toFixed(1)),
    dataDirMB: Number((dirBytes / 2 ** 20).toFixed(1)),
  }),
);
