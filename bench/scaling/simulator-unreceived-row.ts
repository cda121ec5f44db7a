// One row of the simulator's retention table, in a process of its own so its memory is its own:
//   node --import tsx bench/scaling/simulator-unreceived-row.ts <events> <dataDir>
// Raises <events> order.created events on a durable store (--data-dir) that has no subscription, so no
// subscription will ever deliver them, in batches of 64 with a turn of the event loop between batches (as
// a script driving the back office does), with the default retention. Prints one JSON line: events/s,
// peak RSS, the data directory's peak size (sampled) and its size after close, and the events kept.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createSimulator } from '../../workbench/simulator/index.js';

const events = Number(process.argv[2]);
const dataDir = process.argv[3];
if (!(events > 0 && dataDir)) {
  console.error('simulator-unreceived-row: usage: simulator-unreceived-row.ts <events> <dataDir>');
  process.exit(2);
}
const STORE = 'scaling-store';
const dirBytes = () => readdirSync(dataDir).reduce((n, f) => n + statSync(path.join(dataDir, f)).size, 0);

const sim = createSimulator({ dataDir });
let peakRss = 0;
let peakDir = 0;
const sample = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  peakDir = Math.max(peakDir, dirBytes());
}, 250);
const started = performance.now();
for (let i = 0; i < events; i++) {
  sim.trigger(STORE, 'order.created', { order_number: `SO-U${i}` });
  if (i % 64 === 63) await sim.settled();
}
await sim.settled();
const seconds = (performance.now() - started) / 1000;
await sim.prune(); // the last pass (one also runs every 500 events raised)
clearInterval(sample);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
peakDir = Math.max(peakDir, dirBytes());
let kept = 0;
for (let since = '', more = true; more; ) {
  const page = sim.service.listEvents(STORE, new URLSearchParams({ limit: '1000', ...(since ? { since } : {}) })).body as { content: { events: Array<{ created_at: string }>; has_more: boolean } };
  kept += page.content.events.length;
  more = page.content.has_more;
  since = page.content.events.at(-1)?.created_at ?? '';
  if (more) kept -= 1; // the next page starts at the last one's time (inclusive)
}
await sim.close();
console.log(
  JSON.stringify({
    events,
    seconds: Number(seconds.toFixed(2)),
    eventsPerSecond: Math.round(events / seconds),
    kept,
    peakRssMB: Number((peakRss / 2 ** 20).toFixed(1)),
    peakDataDirMB: Number((peakDir / 2 ** 20).toFixed(1)),
    dataDirMB: Number((dirBytes() / 2 ** 20).toFixed(1)),
  }),
);
