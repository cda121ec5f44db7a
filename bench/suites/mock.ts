// Issue 5 benchmark: the mock workbench against the plain `prism mock` CLI, side by side in one run,
// on the same document and the same response: a 100-product `GET /catalog/products` list. Both run
// as child processes (so start-up is compared fairly) on loopback free ports, measured one after the
// other with the same autocannon settings, and are killed by PID in `finally`.
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { metric, type BenchSuite } from '../lib/metric.js';
import { documents, repoRoot } from '../../src/contract/spec-files.js';
import { productListBody } from '../lib/fixtures.js';

const require = createRequire(import.meta.url);
// autocannon ships no types; only run() and its result fields below are used.
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<any>;

const PRODUCTS = 100;
const DURATION_S = 5;
const CONNECTIONS = 10;
const TOKEN = 'bench-token';
const LIST_PATH = '/catalog/products';
const STARTS = 3;
const MOCK_PATH = `/api/v1/bench-store/storefront${LIST_PATH}`;

/** A single-file copy of the storefront document whose ListProducts example lists 100 products. */
export async function writeBenchSpec(dir: string): Promise<{ file: string; bytes: number }> {
  const doc: any = await $RefParser.bundle(documents.storefront);
  const deref = (node: any): any => {
    // Bundling keeps internal `$ref`s for objects used more than once; follow them to edit in place.
    while (node && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      node = node.$ref
        .slice(2)
        .split('/')
        .map((s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((o: any, k: string) => o[decodeURIComponent(k)], doc);
    }
    return node;
  };
  const response = deref(deref(deref(doc.paths[LIST_PATH]).get.responses['200']));
  const examples = deref(response.content['application/json']).examples;
  const example = deref(Object.values<any>(examples)[0]);
  example.value = await productListBody(PRODUCTS);
  const value = example.value;
  const file = path.join(dir, 'storefront-bench.json');
  await writeFile(file, JSON.stringify(doc));
  return { file, bytes: Buffer.byteLength(JSON.stringify(value)) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface Side {
  label: string;
  child: ChildProcess;
  url: string;
  startupMs: number;
}

async function start(label: string, args: string[], port: number, urlPath: string): Promise<Side> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}${urlPath}`;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${label} exited before answering`);
    if (performance.now() - t0 > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`${label} did not answer 200 within 60 s`);
    }
    try {
      const res = await request(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      await res.body.dump();
      if (res.statusCode === 200) return { label, child, url, startupMs: performance.now() - t0 };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

function stop(side: Side | undefined): void {
  if (side?.child.pid && side.child.exitCode === null && side.child.signalCode === null) side.child.kill('SIGKILL');
}

function exited(side: Side | undefined): Promise<void> {
  if (!side || side.child.exitCode !== null || side.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => side.child.once('exit', () => resolve()));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function load(url: string): Promise<{ rps: number; p99: number; errors: number; non2xx: number }> {
  const opts = { url, connections: CONNECTIONS, pipelining: 1, headers: { authorization: `Bearer ${TOKEN}` } };
  await autocannon({ ...opts, duration: 1 }); // warm-up, not recorded: both sides get the same JIT chance
  const r = await autocannon({ ...opts, duration: DURATION_S });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

async function body(url: string): Promise<string> {
  const res = await request(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  return res.body.text();
}

const suite: BenchSuite = {
  name: 'mock',
  async run() {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mock-bench-'));
    let subject: Side | undefined;
    let baseline: Side | undefined;
    try {
      const spec = await writeBenchSpec(dir);
      const [subjectPort, baselinePort] = await Promise.all([freePort(), freePort()]);
      // Start-up is the median of three spawns per side (the machine is shared, single runs are
      // noisy); the third instance of each stays up for the load test. Spawns are sequential so
      // neither competes for the CPU with the other.
      const subjectArgs = ['--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), 'mock', '--port', String(subjectPort), '--host', '127.0.0.1', '--spec', spec.file];
      const baselineArgs = [require.resolve('@stoplight/prism-cli/dist/index.js'), 'mock', spec.file, '-p', String(baselinePort), '-h', '127.0.0.1'];
      const subjectStarts: number[] = [];
      const baselineStarts: number[] = [];
      for (let i = 0; i < STARTS; i++) {
        stop(subject);
        stop(baseline);
        await Promise.all([exited(subject), exited(baseline)]);
        subject = await start('mock workbench', subjectArgs, subjectPort, MOCK_PATH);
        baseline = await start('prism mock CLI', baselineArgs, baselinePort, LIST_PATH);
        subjectStarts.push(subject.startupMs);
        baselineStarts.push(baseline.startupMs);
      }
      if (!subject || !baseline) throw new Error('no server started');
      const [a, b] = await Promise.all([body(subject.url), body(baseline.url)]);
      const same = JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
      if (!same) throw new Error('the two servers answer different bodies; the comparison would be unfair');

      const s = await load(subject.url);
      const p = await load(baseline.url);
      const notes = `${PRODUCTS}-product list, ${a.length} bytes, identical on both sides; autocannon ${CONNECTIONS} connections, ${DURATION_S} s after a 1 s warm-up; errors/non-2xx subject ${s.errors}/${s.non2xx}, baseline ${p.errors}/${p.non2xx}`;
      return [
        metric({
          id: 'mock.listProducts100.rps.vs.prismCli',
          description: 'Requests per second on GET /catalog/products (100 products): mock workbench on its real path vs prism mock CLI',
          unit: 'req/s',
          subject: { label: subject.label, value: s.rps },
          baseline: { label: baseline.label, value: p.rps },
          target: { op: '>=', ratio: 3 },
          notes,
        }),
        metric({
          id: 'mock.listProducts100.p99.vs.prismCli',
          description: 'p99 latency on the same load',
          unit: 'ms',
          // autocannon reports whole milliseconds; a 0 ms p99 is counted as 0.5 ms to keep the ratio finite.
          subject: { label: subject.label, value: Math.max(s.p99, 0.5) },
          baseline: { label: baseline.label, value: Math.max(p.p99, 0.5) },
          target: { op: '<=', ratio: 1 },
          notes,
        }),
        metric({
          id: 'mock.startup.firstOk.vs.prismCli',
          description: 'Time from spawning the process to the first 200 on the 100-product list',
          unit: 'ms',
          subject: { label: subject.label, value: Math.round(median(subjectStarts)) },
          baseline: { label: baseline.label, value: Math.round(median(baselineStarts)) },
          target: { op: '<=', ratio: 0.5 },
          notes: `median of ${STARTS} spawns each (subject ${subjectStarts.map(Math.round).join('/')} ms, baseline ${baselineStarts.map(Math.round).join('/')} ms); both node child processes (the mock via --import tsx, as npm start runs it), polled every 5 ms`,
        }),
      ];
    } finally {
      stop(subject);
      stop(baseline);
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
