// Issue 5 benchmark: the mock workbench against the plain `prism mock` CLI, side by side in one run,
// on the same document and the same response: a 100-product `GET /catalog/products` list. Both run
// as child processes (start-up has its own suite, startup.ts) on loopback free ports, measured one after the
// other with the same autocannon settings, and are killed by PID in `finally`.
// The sandbox (`npm start`: the seeded world, strict tokens) answers its own 100-product page; a bare
// node:http server sending those exact bytes is its baseline, and the examples mock and prism serve the
// same page as their spec example, so all four sides send identical bodies.
// Issue 39's rows on the per-request cost of routing, auth and the answer: the sandbox's small countries
// answer vs a bare node:http server sending its bytes; and a 20-product page with the sandbox's answer
// cache off (every request builds 20 real products from the world: bench/lib/sandbox-server.ts
// --no-answer-cache) vs `prism mock` with its logging off (`-v silent`) serving the contract's own 2-item
// example of that page, the same document as the docs.
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
import { documents, repoRoot } from '../../scripts/lib/repo.js';
import { productListBody } from '../lib/fixtures.js';
import { sandboxApiKey } from '../../workbench/index.js';

const require = createRequire(import.meta.url);
// autocannon ships no types; only run() and its result fields below are used.
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<any>;

const PRODUCTS = 100;
const DURATION_S = 5;
const CONNECTIONS = 10;
const MANY_CONNECTIONS = 100;
const TOKEN = 'bench-token';
/** bench-store's own sandbox key (the sandbox opens each store with its own key only). */
export const BENCH_STORE_KEY = { 'x-api-key': sandboxApiKey('bench-store') };
const LIST_PATH = '/catalog/products';
const MOCK_PATH = `/api/v1/bench-store/storefront${LIST_PATH}`;
const SANDBOX_PATH = MOCK_PATH;
const COUNTRIES_PATH = '/api/v1/bench-store/storefront/common/countries';
const SMALL_PAGE = 20;

/** A single-file copy of the storefront document whose ListProducts example lists 100 products (or is `value`). */
export async function writeBenchSpec(dir: string, value?: unknown): Promise<{ file: string; bytes: number }> {
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
  example.value = value ?? (await productListBody(PRODUCTS));
  const file = path.join(dir, 'storefront-bench.json');
  await writeFile(file, JSON.stringify(doc));
  return { file, bytes: Buffer.byteLength(JSON.stringify(example.value)) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Side {
  label: string;
  child: ChildProcess;
  url: string;
  startupMs: number;
}

export async function start(label: string, args: string[], port: number, urlPath: string, probe?: { path: string; method: string; headers: Record<string, string> }, env: NodeJS.ProcessEnv = process.env): Promise<Side> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'ignore', env });
  const url = `http://127.0.0.1:${port}${urlPath}`;
  const ready = probe ? `http://127.0.0.1:${port}${probe.path}` : url;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${label} exited before answering`);
    if (performance.now() - t0 > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`${label} did not answer 200 within 60 s`);
    }
    try {
      const res = await request(ready, probe ? { method: probe.method as 'POST', headers: probe.headers } : { headers: { authorization: `Bearer ${TOKEN}` } });
      await res.body.dump();
      if (res.statusCode === 200) return { label, child, url, startupMs: performance.now() - t0 };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A node:http server that answers every request with these bytes: the floor any server can reach. */
export const BARE_SERVER = `
const body = require('node:fs').readFileSync(process.argv[1]);
require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1');`;

/** An access token issued by the sandbox (strict auth: only those open the storefront). */
export async function sandboxToken(port: number): Promise<string> {
  const res = await request(`http://127.0.0.1:${port}/api/v1/bench-store/storefront/auth/anonymous`, { method: 'POST', headers: BENCH_STORE_KEY });
  return ((await res.body.json()) as { content: { access_token: string } }).content.access_token;
}

export function stop(side: Side | undefined): void {
  if (side?.child.pid && side.child.exitCode === null && side.child.signalCode === null) side.child.kill('SIGKILL');
}

export function exited(side: Side | undefined): Promise<void> {
  if (!side || side.child.exitCode !== null || side.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => side.child.once('exit', () => resolve()));
}


async function load(url: string, token = TOKEN, connections = CONNECTIONS): Promise<{ rps: number; p99: number; errors: number; non2xx: number }> {
  const opts = { url, connections, pipelining: 1, headers: { authorization: `Bearer ${token}` } };
  await autocannon({ ...opts, duration: 1 }); // warm-up, not recorded: both sides get the same JIT chance
  const r = await autocannon({ ...opts, duration: DURATION_S });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

export async function body(url: string, token = TOKEN): Promise<string> {
  const res = await request(url, { headers: { authorization: `Bearer ${token}` } });
  return res.body.text();
}

const suite: BenchSuite = {
  name: 'mock',
  async run() {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mock-bench-'));
    let subject: Side | undefined;
    let baseline: Side | undefined;
    let sandbox: Side | undefined;
    let bare: Side | undefined;
    let bareCountries: Side | undefined;
    let uncached: Side | undefined;
    let prismSilent: Side | undefined;
    const sides = () => [subject, baseline, sandbox, bare, bareCountries, uncached, prismSilent];
    try {
      const [subjectPort, baselinePort, sandboxPort, barePort, bareCountriesPort, uncachedPort, prismSilentPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
      // The sandbox first: its 100-product page becomes every other side's answer.
      const sandboxArgs = ['--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), 'mock', '--port', String(sandboxPort), '--host', '127.0.0.1', '--quiet'];
      sandbox = await start('sandbox (npm start)', sandboxArgs, sandboxPort, `${SANDBOX_PATH}?limit=${PRODUCTS}`, { path: '/api/v1/bench-store/storefront/auth/anonymous', method: 'POST', headers: BENCH_STORE_KEY });
      const token = await sandboxToken(sandboxPort);
      const page = await body(sandbox.url, token);
      const pageFile = path.join(dir, 'sandbox-page.json');
      await writeFile(pageFile, page);
      bare = await start('bare node:http, same bytes', ['-e', BARE_SERVER, pageFile, String(barePort)], barePort, SANDBOX_PATH);
      const spec = await writeBenchSpec(dir, JSON.parse(page));
      // Start-up has its own suite (startup.ts: the repository's tsx start and the installed package's).
      const subjectArgs = ['--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), 'mock', '--port', String(subjectPort), '--host', '127.0.0.1', '--spec', spec.file];
      const baselineArgs = [require.resolve('@stoplight/prism-cli/dist/index.js'), 'mock', spec.file, '-p', String(baselinePort), '-h', '127.0.0.1'];
      subject = await start('mock workbench', subjectArgs, subjectPort, MOCK_PATH);
      baseline = await start('prism mock CLI', baselineArgs, baselinePort, LIST_PATH);
      const [a, b, c] = await Promise.all([body(subject.url), body(baseline.url), body(bare.url)]);
      const same = JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b)) && JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(page)) && c === page;
      if (!same) throw new Error('the servers answer different bodies; the comparison would be unfair');
      if ((JSON.parse(page) as { content: { products: unknown[] } }).content.products.length !== PRODUCTS) throw new Error(`the sandbox page has no ${PRODUCTS} products`);

      const countriesUrl = `http://127.0.0.1:${sandboxPort}${COUNTRIES_PATH}`;
      const countries = await body(countriesUrl, token);
      const countriesFile = path.join(dir, 'sandbox-countries.json');
      await writeFile(countriesFile, countries);
      bareCountries = await start('bare node:http, same bytes', ['-e', BARE_SERVER, countriesFile, String(bareCountriesPort)], bareCountriesPort, COUNTRIES_PATH);
      if ((await body(bareCountries.url)) !== countries) throw new Error('the bare server answers other bytes than the sandbox on the countries answer');
      const uncachedArgs = ['--conditions=sfc-source', '--import', 'tsx', path.join(repoRoot, 'bench/lib/sandbox-server.ts'), String(uncachedPort), '--no-answer-cache'];
      uncached = await start('sandbox, answer cache off', uncachedArgs, uncachedPort, `${SANDBOX_PATH}?limit=${SMALL_PAGE}`, { path: '/api/v1/bench-store/storefront/auth/anonymous', method: 'POST', headers: BENCH_STORE_KEY });
      const uncachedToken = await sandboxToken(uncachedPort);
      const prismSilentArgs = [require.resolve('@stoplight/prism-cli/dist/index.js'), 'mock', documents.storefront, '-p', String(prismSilentPort), '-h', '127.0.0.1', '-v', 'silent'];
      prismSilent = await start('prism mock CLI, logging off (-v silent)', prismSilentArgs, prismSilentPort, `${LIST_PATH}?limit=${SMALL_PAGE}`);
      const uncachedPage = JSON.parse(await body(uncached.url, uncachedToken)) as { content: { products: unknown[] } };
      const prismPage = JSON.parse(await body(prismSilent.url)) as { content: { products: unknown[] } };
      if (uncachedPage.content.products.length !== SMALL_PAGE) throw new Error(`the uncached sandbox page has no ${SMALL_PAGE} products`);

      const nc = await load(bareCountries.url);
      const xc = await load(countriesUrl, token);
      const u = await load(uncached.url, uncachedToken);
      const ps = await load(prismSilent.url);
      const n = await load(bare.url);
      const x = await load(sandbox.url, token);
      // Tail latency under many connections: the sandbox and the bare server, 100 connections each.
      const n100 = await load(bare.url, TOKEN, MANY_CONNECTIONS);
      const x100 = await load(sandbox.url, token, MANY_CONNECTIONS);
      const s = await load(subject.url);
      const p = await load(baseline.url);
      const notes = `${PRODUCTS}-product list, ${a.length} bytes, identical on both sides; autocannon ${CONNECTIONS} connections, ${DURATION_S} s after a 1 s warm-up; errors/non-2xx subject ${s.errors}/${s.non2xx}, baseline ${p.errors}/${p.non2xx}`;
      const sandboxNotes = `the sandbox's own ${PRODUCTS}-product page (GET ${SANDBOX_PATH}?limit=${PRODUCTS}, strict bearer token, ${page.length} bytes), the same bytes from every side; autocannon ${CONNECTIONS} connections, ${DURATION_S} s after a 1 s warm-up; errors/non-2xx sandbox ${x.errors}/${x.non2xx}, bare ${n.errors}/${n.non2xx}, prism ${p.errors}/${p.non2xx}`;
      return [
        metric({
          id: 'mock.sandbox.countries.rps.vs.bare',
          description: "Requests per second on the sandbox's small countries answer (routing, strict auth and the answer) vs a bare node:http server sending the same bytes",
          unit: 'req/s',
          subject: { label: sandbox.label, value: xc.rps },
          baseline: { label: bareCountries.label, value: nc.rps },
          target: { op: '>=', ratio: 0.5 },
          notes: `GET ${COUNTRIES_PATH} (${countries.length} bytes, strict bearer token), the same bytes from both; autocannon ${CONNECTIONS} connections, ${DURATION_S} s after a 1 s warm-up; errors/non-2xx sandbox ${xc.errors}/${xc.non2xx}, bare ${nc.errors}/${nc.non2xx}`,
        }),
        metric({
          id: 'mock.sandbox.listProducts20.uncached.rps.vs.prismSilent',
          description: "Requests per second on a 20-product page with the sandbox's answer cache off (20 real products built per request) vs prism mock CLI with its logging off serving the contract's example",
          unit: 'req/s',
          subject: { label: uncached.label, value: u.rps },
          baseline: { label: prismSilent.label, value: ps.rps },
          target: { op: '>=', ratio: 1 },
          notes: `GET ${SANDBOX_PATH}?limit=${SMALL_PAGE}: the sandbox builds ${uncachedPage.content.products.length} products per request, prism sends the document's example (${prismPage.content.products.length} products); autocannon ${CONNECTIONS} connections, ${DURATION_S} s after a 1 s warm-up; errors/non-2xx sandbox ${u.errors}/${u.non2xx}, prism ${ps.errors}/${ps.non2xx}`,
        }),
        metric({
          id: 'mock.sandbox.listProducts100.rps.vs.bare',
          description: 'Requests per second on the sandbox\'s 100-product list page vs a bare node:http server sending the same bytes',
          unit: 'req/s',
          subject: { label: sandbox.label, value: x.rps },
          baseline: { label: bare.label, value: n.rps },
          target: { op: '>=', ratio: 0.4 },
          notes: sandboxNotes,
        }),
        metric({
          id: 'mock.sandbox.listProducts100.p99at100.vs.bare',
          description: `p99 latency on the sandbox's 100-product list page under ${MANY_CONNECTIONS} connections vs a bare node:http server sending the same bytes`,
          unit: 'ms',
          // autocannon reports whole milliseconds; a 0 ms p99 is counted as 0.5 ms to keep the ratio finite.
          subject: { label: sandbox.label, value: Math.max(x100.p99, 0.5) },
          baseline: { label: bare.label, value: Math.max(n100.p99, 0.5) },
          target: { op: '<=', ratio: 3 },
          notes: `autocannon ${MANY_CONNECTIONS} connections, ${DURATION_S} s after a 1 s warm-up; req/s sandbox ${x100.rps.toFixed(0)}, bare ${n100.rps.toFixed(0)}; errors/non-2xx sandbox ${x100.errors}/${x100.non2xx}, bare ${n100.errors}/${n100.non2xx}`,
        }),
        metric({
          id: 'mock.sandbox.listProducts100.rps.vs.prismCli',
          description: 'Requests per second on the sandbox\'s 100-product list page vs prism mock CLI serving it as the spec example',
          unit: 'req/s',
          subject: { label: sandbox.label, value: x.rps },
          baseline: { label: baseline.label, value: p.rps },
          target: { op: '>=', ratio: 3 },
          notes: sandboxNotes,
        }),
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
      ];
    } finally {
      for (const side of sides()) stop(side);
      await Promise.all(sides().map(exited));
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
