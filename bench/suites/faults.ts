// Fault injection costs nothing while no rule is configured: the sandbox's 100-product list page on the
// default workbench (fault registry present, no rule, the pipeline's check on every request) vs the same
// build with fault injection off (`faults: false`: the check skipped). Both are child processes
// (bench/lib/sandbox-server.ts) on loopback, loaded with autocannon in alternating rounds so a burst of
// load on the shared machine hits both sides alike; each side's figure is the median of its rounds (a
// burst that lands on one round does not move it).
// Requests per second on a shared 2-core machine swing with everyone else's load, so the CPU time each
// server process spent per request (user + system, from /proc, per round, median) is given too:
// it is what the check could cost, and it depends less on who else runs. BENCH_FAULTS_AA=1 runs both
// sides with fault injection off: the spread of that A/A run is the noise floor the targets allow for
// (on the shared 2-core machine: ratios 0.92 to 1.00 in req/s, 0.93 to 1.09 in CPU; bench/NOTES.md).
import path from 'node:path';
import { median } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { body, exited, freePort, sandboxToken, start, stop, type Side } from './mock.js';
import { createRequire } from 'node:module';
import { childCpuMs } from '../lib/child-cpu.js';
import { sandboxApiKey } from '../../workbench/index.js';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<any>;

const PRODUCTS = 100;
const CONNECTIONS = 10;
const ROUND_S = 2;
const ROUNDS = 8;
const PAGE = `/api/v1/bench-store/storefront/catalog/products?limit=${PRODUCTS}`;
const PROBE = { path: '/api/v1/bench-store/storefront/auth/anonymous', method: 'POST', headers: { 'x-api-key': sandboxApiKey('bench-store') } };

const suite: BenchSuite = {
  name: 'faults',
  async run() {
    const calibrate = process.env.BENCH_FAULTS_AA === '1';
    let subject: Side | undefined;
    let baseline: Side | undefined;
    try {
      const [subjectPort, baselinePort] = await Promise.all([freePort(), freePort()]);
      const args = (port: number, ...more: string[]) => ['--conditions=sfc-source', '--import', 'tsx', path.join(repoRoot, 'bench/lib/sandbox-server.ts'), String(port), ...more];
      subject = await start(calibrate ? 'sandbox, fault injection off (A/A)' : 'sandbox, no fault rule', args(subjectPort, ...(calibrate ? ['--no-faults'] : [])), subjectPort, PAGE, PROBE);
      baseline = await start('sandbox, fault injection off', args(baselinePort, '--no-faults'), baselinePort, PAGE, PROBE);
      const tokens = { subject: await sandboxToken(subjectPort), baseline: await sandboxToken(baselinePort) };
      const [a, b] = await Promise.all([body(subject.url, tokens.subject), body(baseline.url, tokens.baseline)]);
      // The image URLs carry each server's own port; the rest of the page must be the same bytes.
      const samePage = a.split(`:${subjectPort}/`).join(':PORT/') === b.split(`:${baselinePort}/`).join(':PORT/');
      if (!samePage) throw new Error('the two sides answer different pages; the comparison would be unfair');
      if ((JSON.parse(a) as { content: { products: unknown[] } }).content.products.length !== PRODUCTS) throw new Error(`the sandbox page has no ${PRODUCTS} products`);
      const load = async (side: Side, token: string, duration: number) => {
        const cpu = cpuMs(side);
        const r = await autocannon({ url: side.url, connections: CONNECTIONS, pipelining: 1, duration, headers: { authorization: `Bearer ${token}` } });
        return { requests: r.requests.total as number, seconds: duration, errors: (r.errors + r.timeouts + r.non2xx) as number, cpuMs: cpuMs(side) - cpu };
      };
      // Warm-up (JIT, the world built, caches filled), not recorded.
      await load(subject, tokens.subject, 1);
      await load(baseline, tokens.baseline, 1);
      const total = { subject: { requests: 0, seconds: 0, errors: 0, cpuMs: 0 }, baseline: { requests: 0, seconds: 0, errors: 0, cpuMs: 0 } };
      const rounds = { subject: { rps: [] as number[], cpu: [] as number[] }, baseline: { rps: [] as number[], cpu: [] as number[] } };
      for (let round = 0; round < ROUNDS; round++) {
        const order: Array<'subject' | 'baseline'> = round % 2 ? ['baseline', 'subject'] : ['subject', 'baseline'];
        for (const name of order) {
          const r = await load(name === 'subject' ? subject : baseline, tokens[name], ROUND_S);
          if (process.env.BENCH_VERBOSE === '1') process.stderr.write(`faults: round ${round} ${name} ${(r.requests / r.seconds).toFixed(0)} req/s, ${((r.cpuMs * 1000) / r.requests).toFixed(0)} µs CPU per request\n`);
          total[name].requests += r.requests;
          total[name].seconds += r.seconds;
          total[name].errors += r.errors;
          total[name].cpuMs += r.cpuMs;
          rounds[name].rps.push(r.requests / r.seconds);
          rounds[name].cpu.push((r.cpuMs * 1000) / r.requests);
        }
      }
      const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join('/');
      const notes = `GET ${PAGE} with a sandbox token (${a.length} bytes); autocannon ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${ROUND_S} s per side after a 1 s warm-up each, medians of the rounds; errors/non-2xx subject ${total.subject.errors}, baseline ${total.baseline.errors}; rounds req/s subject ${list(rounds.subject.rps)}, baseline ${list(rounds.baseline.rps)}; rounds CPU µs per request subject ${list(rounds.subject.cpu)}, baseline ${list(rounds.baseline.cpu)}`;
      return [
        metric({
          id: 'mock.sandbox.listProducts100.rps.faultsOff',
          description: "Requests per second on the sandbox's 100-product list page with no fault rule configured vs the same build with fault injection off (faults: false)",
          unit: 'req/s',
          subject: { label: subject.label, value: median(rounds.subject.rps) },
          baseline: { label: baseline.label, value: median(rounds.baseline.rps) },
          target: { op: '>=', ratio: 0.9 },
          notes,
        }),
        metric({
          id: 'mock.sandbox.listProducts100.cpuPerRequest.faultsOff',
          description: "Server CPU time per request on the sandbox's 100-product list page with no fault rule configured vs the same build with fault injection off",
          unit: 'µs',
          subject: { label: subject.label, value: median(rounds.subject.cpu) },
          baseline: { label: baseline.label, value: median(rounds.baseline.cpu) },
          target: { op: '<=', ratio: 1.1 },
          notes,
        }),
      ];
    } finally {
      for (const side of [subject, baseline]) stop(side);
      await Promise.all([subject, baseline].map(exited));
    }
  },
};

export default suite;

/** CPU milliseconds the side's process has used so far. */
const cpuMs = (side: Side): number => childCpuMs(side.child.pid);
