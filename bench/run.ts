// npm run bench [-- <suite>...]   (npm run bench -- --scaling [part...]: the scaling table, bench/scaling/)
// Runs every suite in bench/suites (or the named ones) in this process, prints one table, and writes
// bench/results.json. Benchmarks compare two sides measured in the same run; they never fail a build.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchSuite, Metric } from './lib/metric.js';

const here = path.dirname(fileURLToPath(import.meta.url));
if (process.argv.includes('--scaling')) {
  // The scaling table (bench/scaling/run.ts) instead of the side-by-side targets.
  const { runScaling } = await import('./scaling/run.js');
  await runScaling(process.argv.slice(2).filter((a) => a !== '--scaling'));
  process.exit();
}
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = (await readdir(path.join(here, 'suites'))).filter((f) => f.endsWith('.ts')).sort();
if (process.argv.includes('--help')) {
  console.log(`usage: npm run bench [-- <suite>...]   runs the suites (all by default), prints the table, writes bench/results.json
       npm run bench -- --scaling [part...]   the scaling table (bench/SCALING.md)
suites: ${files.map((f) => f.replace(/\.ts$/, '')).join(', ')}`);
  process.exit(0);
}

const metrics: Metric[] = [];
const failures: Array<{ suite: string; error: string }> = [];
for (const file of files) {
  const name = file.replace(/\.ts$/, '');
  if (wanted.length && !wanted.includes(name)) continue;
  const suite: BenchSuite = (await import(pathToFileURL(path.join(here, 'suites', file)).href)).default;
  process.stderr.write(`bench: ${suite.name} ...\n`);
  const started = Date.now();
  try {
    const results = await suite.run();
    metrics.push(...results.map((m) => ({ ...m, suite: name })));
    process.stderr.write(`bench: ${suite.name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    failures.push({ suite: suite.name, error: error instanceof Error ? error.message : String(error) });
    process.stderr.write(`bench: ${suite.name} FAILED: ${failures.at(-1)!.error}\n`);
  }
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3));
console.table(
  metrics.map((m) => ({
    metric: m.id,
    subject: `${m.subject.label}: ${fmt(m.subject.value)} ${m.unit}`,
    baseline: `${m.baseline.label}: ${fmt(m.baseline.value)} ${m.unit}`,
    ratio: fmt(m.ratio),
    target: `${m.target.op} ${m.target.ratio}`,
    met: m.met ? 'yes' : 'NO',
  })),
);

const out = path.join(here, 'results.json');
// A run of some suites keeps the other suites' rows of the last file (each row names its suite), so
// `npm run bench -- proxy` refreshes the proxy rows and leaves the rest of the table as it was.
const ran = new Set(metrics.map((m) => m.suite));
const kept: Metric[] = [];
if (wanted.length) {
  const previous = await readFile(out, 'utf8').then((text) => JSON.parse(text) as { metrics?: Metric[] }, () => ({ metrics: [] }));
  const fresh = new Set(metrics.map((m) => m.id));
  for (const m of previous.metrics ?? []) if (!fresh.has(m.id) && !(m.suite && ran.has(m.suite))) kept.push(m);
}
await writeFile(
  out,
  `${JSON.stringify(
    {
      generatedAt: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      ...(wanted.length ? { partial: `this run measured ${[...ran].join(', ') || 'no suite'}; the other rows are from earlier runs` } : {}),
      metrics: wanted.length ? [...kept, ...metrics].sort((a, b) => suiteOf(a).localeCompare(suiteOf(b))) : metrics,
      failures,
    },
    null,
    2,
  )}\n`,
);
console.log(`bench: ${metrics.filter((m) => m.met).length}/${metrics.length} targets met; wrote ${path.relative(process.cwd(), out)}`);

/** A row's suite; rows written before rows named theirs go by their id's first word. */
function suiteOf(m: Metric): string {
  return m.suite ?? m.id.split('.')[0];
}
