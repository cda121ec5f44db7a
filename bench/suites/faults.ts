// Fault injection costs nothing while no rule is configured: the sandbox's 100-product list page on the
// default workbench (fault registry present, no rule, the pipeline's check on every request) vs the same
// build with fault injection off (`faults: false`: the check skipped). Both are child processes
// (bench/lib/sandbox-server.ts) on loopback, loaded with autocannon in alternating rounds so a burst of
// load on the shared machine hits both sides alike; each side's requests are summed over its rounds.
// Requests per second on a shared 2-core machine swing with everyone else's load, so the CPU time each
// server process spent per request (user + system, from /proc, summed over the same rounds) is given too:
// it is what the check could cost, and it does not depend on who else runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { metric, type BenchSuite } from '../lib/metric.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { body, exited, freePort, sandboxToken, start, stop, type Side } from './mock.js';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<any>;

const PRODUCTS = 100;
const CONNECTIONS = 10;
const ROUND_S = 2;
const ROUNDS = 6;
const PAGE = `/api/v1/bench-store/storefront/catalog/products?limit=${PRODUCTS}`;
const PROBE = { path: '/api/v1/bench-store/storefront/auth/anonymous', method: 'POST', headers: { 'x-api-key': 'sk_bench' } };

const suite: BenchSuite = {
  name: 'faults',
  async run() {
    let subject: Side | undefined;
    let baseline: Side | undefined;
    try {
      const [subjectPort, baselinePort] = await Promise.all([freePort(), freePort()]);
      const args = (port: number, ...more: string[]) => ['--conditions=sfc-source', '--import', 'tsx', path.join(repoRoot, 'bench/lib/sandbox-server.ts'), String(port), ...more];
      subject = await start('sandbox, no fault rule', args(subjectPort), subjectPort, PAGE, PROBE);
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
      for (let round = 0; round < ROUNDS; round++) {
        const order: Array<'subject' | 'baseline'> = round % 2 ? ['baseline', 'subject'] : ['subject', 'baseline'];
        for (const name of order) {
          const r = await load(name === 'subject' ? subject : baseline, tokens[name], ROUND_S);
          if (process.env.BENCH_VERBOSE) process.stderr.write(`faults: round ${round} ${name} ${(r.requests / r.seconds).toFixed(0)} req/s, ${((r.cpuMs * 1000) / r.requests).toFixed(0)} µs CPU per request\n`);
          total[name].requests += r.requests;
          total[name].seconds += r.seconds;
          total[name].errors += r.errors;
          total[name].cpuMs += r.cpuMs;
        }
      }
      const rps = (t: { requests: number; seconds: number }) => t.requests / t.seconds;
      const cpuPerRequest = (t: { requests: number; cpuMs: number }) => (t.cpuMs * 1000) / t.requests;
      const notes = `GET ${PAGE} with a sandbox token (${a.length} bytes); autocannon ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${ROUND_S} s per side after a 1 s warm-up each; errors/non-2xx subject ${total.subject.errors}, baseline ${total.baseline.errors}; req/s subject ${rps(total.subject).toFixed(0)}, baseline ${rps(total.baseline).toFixed(0)}; CPU per request subject ${cpuPerRequest(total.subject).toFixed(0)} µs, baseline ${cpuPerRequest(total.baseline).toFixed(0)} µs`;
      return [
        metric({
          id: 'mock.sandbox.listProducts100.rps.faultsOff',
          description: "Requests per second on the sandbox's 100-product list page with no fault rule configured vs the same build with fault injection off (faults: false)",
          unit: 'req/s',
          subject: { label: subject.label, value: rps(total.subject) },
          baseline: { label: baseline.label, value: rps(total.baseline) },
          target: { op: '>=', ratio: 0.95 },
          notes,
        }),
        metric({
          id: 'mock.sandbox.listProducts100.cpuPerRequest.faultsOff',
          description: "Server CPU time per request on the sandbox's 100-product list page with no fault rule configured vs the same build with fault injection off",
          unit: 'µs',
          subject: { label: subject.label, value: cpuPerRequest(total.subject) },
          baseline: { label: baseline.label, value: cpuPerRequest(total.baseline) },
          target: { op: '<=', ratio: 1.05 },
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

/** CPU milliseconds (user + system) the side's process has used so far, from /proc (Linux; 0 elsewhere). */
function cpuMs(side: Side): number {
  try {
    const fields = readFileSync(`/proc/${side.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}
