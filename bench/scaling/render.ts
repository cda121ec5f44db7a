// bench/SCALING.md from bench/scaling.json: the tables only. Where each curve bends, and why, is written by
// hand in bench/NOTES.md ("Scaling"), next to the profiles that explain it.
import { HEAP_MB } from './memory.js';
import type { Scaling } from './types.js';

const cell = (v: number | string | undefined) => (v === undefined ? '-' : String(v));

export function renderScaling(s: Scaling): string {
  const out: string[] = [
    '# Scaling',
    '',
    `Written by \`npm run bench -- --scaling\` (bench/scaling/); do not edit: the numbers come from bench/scaling.json.`,
    `Measured ${s.generatedAt} on Node ${s.node}, ${s.cpus} cores, load average at start ${s.loadAverage.join(' ')} (the machine is shared).`,
    'Where the curves bend and why: bench/NOTES.md, "Scaling".',
    '',
  ];
  if (s.mock) {
    out.push('## Mock: the sandbox\'s 100-product page vs a bare node:http server with the same bytes (autocannon, 4 s after 1 s warm-up)', '');
    out.push('| connections | side | req/s | p50 ms | p99 ms | errors | non-2xx |', '|---:|---|---:|---:|---:|---:|---:|');
    for (const r of s.mock) out.push(`| ${r.connections} | ${r.side} | ${r.rps} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} | ${r.non2xx} |`);
    out.push('');
  }
  if (s.simulator) {
    out.push('## Simulator: order.created on a durable store (--data-dir), one loopback receiver, at most 64 events outstanding, concurrency 64', '');
    out.push('| events | subscriptions | deliveries | seconds | deliveries/s | p50 ms | p99 ms | peak RSS MB | peak heap MB | data dir MB |', '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of s.simulator) {
      if (r.notMeasured) out.push(`| ${r.events} | ${r.subscriptions} | not measured: ${r.notMeasured} | | | | | | | |`);
      else out.push(`| ${r.events} | ${r.subscriptions} | ${cell(r.deliveries)} | ${cell(r.seconds)} | ${cell(r.deliveriesPerSecond)} | ${cell(r.p50Ms)} | ${cell(r.p99Ms)} | ${cell(r.peakRssMB)} | ${cell(r.peakHeapMB)} | ${cell(r.dataDirMB)} |`);
    }
    out.push('', 'p50/p99: from raising an event to each attempt\'s delivered record, with up to 64 events (64 x subscriptions attempts) queued.', '');
  }
  if (s.simulatorRetention) {
    out.push('## Simulator: events no subscription receives, on a durable store (--data-dir), default retention (newest 1,000 such events per store)', '');
    out.push('| events | seconds | events/s | events kept | peak RSS MB | peak data dir MB | data dir MB after close |', '|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of s.simulatorRetention) {
      if (r.notMeasured) out.push(`| ${r.events} | not measured: ${r.notMeasured} | | | | | |`);
      else out.push(`| ${r.events} | ${cell(r.seconds)} | ${cell(r.eventsPerSecond)} | ${cell(r.kept)} | ${cell(r.peakRssMB)} | ${cell(r.peakDataDirMB)} | ${cell(r.dataDirMB)} |`);
    }
    out.push('', 'Before the retention (issue 30): 0.5 -> 13 MB for 8,000 such events, growing with every event.', '');
  }
  if (s.certify) {
    out.push('## Certify: generated cases per operation (`certify --generate N`, against the sandbox)', '');
    out.push('| cases per operation | cases sent | seconds | cases/s | peak RSS MB | verdict | note |', '|---:|---:|---:|---:|---:|---|---|');
    for (const r of s.certify) out.push(`| ${r.casesPerOperation} | ${cell(r.cases)} | ${cell(r.seconds)} | ${cell(r.casesPerSecond)} | ${cell(r.peakRssMB)} | ${r.verdict ?? ''} | ${r.notMeasured ?? ''} |`);
    out.push('');
  }
  if (s.docsRows) {
    out.push('## Docs: events reference build time against the number of events', '');
    out.push('| events | pages | seconds | ms per event |', '|---:|---:|---:|---:|');
    for (const r of s.docsRows) out.push(`| ${r.events} | ${r.pages} | ${r.seconds} | ${r.msPerEvent} |`);
    out.push('');
  }
  if (s.memory) {
    out.push(`## Memory: the workbench with a ${HEAP_MB} MB heap (\`--max-old-space-size=${HEAP_MB}\`, in memory, default --max-worlds 64), one client on loopback`, '');
    out.push('| load | requests | answered | seconds | peak RSS MB | RSS at end MB | RSS growth MB (target) | up and answering | note |', '|---|---:|---:|---:|---:|---:|---:|---|---|');
    for (const r of s.memory) {
      const growth = r.growthMB === undefined ? '-' : `${r.growthMB} (< ${r.targetMB}: ${r.growthMB < r.targetMB! ? 'met' : 'missed'})`;
      out.push(`| ${r.load} | ${cell(r.requests)} | ${cell(r.answered)} | ${cell(r.seconds)} | ${cell(r.peakRssMB)} | ${cell(r.endRssMB)} | ${growth} | ${r.up ? 'yes' : 'no'} | ${r.note ?? ''} |`);
    }
    out.push('', 'RSS growth: from after a warm-up of 50 such requests to the end of the row (issue 37 item 21: the request log had kept every body it saw).', '');
  }
  if (s.touchedStores) {
    const t = s.touchedStores;
    out.push(`## Memory: touched stores (issue 39, "RSS flat for 10,000 touched stores"), the same child`, '');
    out.push('| stores touched | seconds | RSS MB |', '|---:|---:|---:|');
    for (const r of t.samples) out.push(`| ${r.stores} | ${r.seconds} | ${cell(r.rssMB)} |`);
    const verdict = t.growthMB === undefined ? 'not measured' : `${t.growthMB} MB (target < ${t.targetMB}: ${t.growthMB < t.targetMB ? 'met' : 'missed'})`;
    out.push('', `Each store touched once as an app opens it: a sign-in with the store's own key (an identity kept) and one 5-product page (its world built; past --max-worlds 64 the least recently used is dropped). RSS growth from the 2,000th store to the last: ${verdict}; up and answering at the end: ${t.up ? 'yes' : 'no'}${t.note ? `; ${t.note}` : ''}.`, '');
  }
  if (s.storage) {
    out.push('## Storage: the workbench\'s one store (--data-dir, workbench.sqlite), restarted as the CLI child', '');
    out.push(
      '| load | writes | stores | data dir MB | log rows | write s | store open + first world s (CPU s) | listening s: tsx (compiled) | RSS at listening MB | first answer s | RSS after reads MB | note |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    );
    for (const r of s.storage) {
      out.push(`| ${r.load} | ${r.entries} | ${r.stores} | ${cell(r.dataDirMB)} | ${cell(r.logRows)} | ${cell(r.writeSeconds)} | ${cell(r.openSeconds)}${r.openCpuSeconds === undefined ? '' : ` (${r.openCpuSeconds})`} | ${cell(r.listeningSeconds)}${r.listeningSecondsCompiled === undefined ? '' : ` (${r.listeningSecondsCompiled})`} | ${cell(r.rssListeningMB)} | ${cell(r.firstAnswerSeconds)} | ${cell(r.rssAfterReadsMB)} | ${r.note ?? ''} |`);
    }
    out.push('', 'Writes made in-process through the sandbox\'s own write path (Sandbox.commit over the store\'s world log, each store folded every FOLD_EVERY writes, 1,000 writes a transaction); store open + first world: the store\'s share of a start, in-process (nothing is replayed: the database is opened, and a store\'s world is built from its folded entries when first used); listening: from spawning `storefront-contract mock --data-dir` to its listening line, the sources through tsx and, in brackets, the compiled bin of `npm run build` that an installed package runs (when the clone has a build newer than the workbench\'s sources). Target (issue 39): restart to listening with 100k and 1M writes <= 1 s, no replay: the same as with none.', '');
  }
  out.push('Reproduce: `npm run bench -- --scaling` (all parts, about 25 minutes on 2 cores) or `npm run bench -- --scaling mock|simulator|certify|docs|memory|stores|storage|simulator-retention`.', '');
  return out.join('\n');
}
