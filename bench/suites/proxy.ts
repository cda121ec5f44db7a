// The validating proxy's cost per request: the sandbox's 100-product list page (about 31 KB, what a
// storefront app loads most) through `storefront-contract proxy` (forwarding plus judging every exchange by
// the stateless rules: JSON parse, schema, envelope, pagination) vs through a minimal node:http + undici
// pass-through written in the bench (bench/lib/proxy-server.ts), both child processes in front of the same
// sandbox child. Latency: one request at a time (a client waiting on each answer, as an app does), taken in
// alternating rounds so a burst of load elsewhere on the shared machine hits both sides; each side's figure
// is the median of its rounds' mean latency. The proxy judges after the client has its answer, so what a
// client waits for is the forwarding, plus the judging of the previous exchange when the next one arrives
// before it is done. The CPU each proxy process spent per request (from /proc, median of rounds) is given
// too: it is the judge's cost whatever the timing, and says what a busy proxy pays. BENCH_PROXY_AA=1 runs
// the plain pass-through on both sides: the spread of that A/A run is the noise floor of the machine.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request, Agent } from 'undici';
import { median } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { BENCH_STORE_KEY, exited, freePort, sandboxToken, start, stop, type Side } from './mock.js';

const PRODUCTS = 100;
const ROUNDS = 10;
const PER_ROUND = 150;
const PAGE = `/api/v1/bench-store/storefront/catalog/products?limit=${PRODUCTS}`;
const PROBE = { path: '/api/v1/bench-store/storefront/auth/anonymous', method: 'POST', headers: BENCH_STORE_KEY };

const suite: BenchSuite = {
  name: 'proxy',
  async run() {
    let upstream: Side | undefined;
    let validating: Side | undefined;
    let plain: Side | undefined;
    const dispatcher = new Agent({ connections: 1, keepAliveTimeout: 10_000 });
    try {
      const [upstreamPort, validatingPort, plainPort] = await Promise.all([freePort(), freePort(), freePort()]);
      const tsx = ['--conditions=sfc-source', '--import', 'tsx'];
      upstream = await start('sandbox', [...tsx, path.join(repoRoot, 'bench/lib/sandbox-server.ts'), String(upstreamPort)], upstreamPort, PAGE, PROBE);
      const upstreamRoot = `http://127.0.0.1:${upstreamPort}`;
      const proxyArgs = (kind: string, port: number) => [...tsx, path.join(repoRoot, 'bench/lib/proxy-server.ts'), kind, String(port), upstreamRoot];
      // Both answer the probe (a POST through them to the sandbox) before they are measured.
      const calibrate = process.env.BENCH_PROXY_AA === '1';
      validating = await start(calibrate ? 'node:http + undici pass-through (A/A)' : 'storefront-contract proxy (validating)', proxyArgs(calibrate ? 'plain' : 'validating', validatingPort), validatingPort, PAGE, PROBE);
      plain = await start('node:http + undici pass-through', proxyArgs('plain', plainPort), plainPort, PAGE, PROBE);
      const token = await sandboxToken(upstreamPort);
      const headers = { authorization: `Bearer ${token}` };
      const get = async (url: string) => {
        const res = await request(url, { headers, dispatcher });
        const bytes = Buffer.from(await res.body.arrayBuffer());
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
        return bytes;
      };
      // The same bytes through both (the page names the sandbox's port in its image URLs: both reach one sandbox).
      const [a, b, direct] = await Promise.all([get(validating.url), get(plain.url), get(upstream.url)]);
      if (!a.equals(direct) || !b.equals(direct)) throw new Error('a proxy changed the bytes; the comparison would be unfair');
      const sides = { validating, plain };
      const rounds = { validating: { ms: [] as number[], cpu: [] as number[] }, plain: { ms: [] as number[], cpu: [] as number[] } };
      const round = async (name: 'validating' | 'plain') => {
        const side = sides[name]!;
        const cpu = cpuMs(side);
        const t0 = performance.now();
        for (let i = 0; i < PER_ROUND; i++) await get(side.url);
        const ms = (performance.now() - t0) / PER_ROUND;
        rounds[name].ms.push(ms);
        rounds[name].cpu.push(((cpuMs(side) - cpu) * 1000) / PER_ROUND);
        if (process.env.BENCH_VERBOSE === '1') process.stderr.write(`proxy: ${name} ${ms.toFixed(3)} ms per request, ${rounds[name].cpu.at(-1)!.toFixed(0)} µs CPU per request\n`);
      };
      // Warm-up (JIT, pools), not recorded.
      for (let i = 0; i < 300; i++) await Promise.all([get(validating.url), get(plain.url)]);
      rounds.validating.ms.length = rounds.plain.ms.length = rounds.validating.cpu.length = rounds.plain.cpu.length = 0;
      for (let r = 0; r < ROUNDS; r++) for (const name of r % 2 ? (['plain', 'validating'] as const) : (['validating', 'plain'] as const)) await round(name);
      const list = (xs: number[], digits = 3) => xs.map((x) => x.toFixed(digits)).join('/');
      const notes = `GET ${PAGE} with a sandbox token (${direct.length} bytes), one request at a time over one kept-alive connection per side; ${ROUNDS} alternating rounds of ${PER_ROUND} requests per side after 300 warm-up requests each, medians of the rounds; the upstream sandbox alone answers in about the plain pass-through's figure less the hop; rounds ms subject ${list(rounds.validating.ms)}, baseline ${list(rounds.plain.ms)}; rounds CPU µs per request subject ${list(rounds.validating.cpu, 0)}, baseline ${list(rounds.plain.cpu, 0)}`;
      return [
        metric({
          id: 'proxy.listProducts100.latency.vsPassThrough',
          description: "Latency per request of the sandbox's 100-product list page through the validating proxy (forwarding + judging) vs through a minimal node:http + undici pass-through, one request at a time",
          unit: 'ms',
          subject: { label: validating.label, value: median(rounds.validating.ms) },
          baseline: { label: plain.label, value: median(rounds.plain.ms) },
          target: { op: '<=', ratio: 1.2 },
          notes,
        }),
        metric({
          id: 'proxy.listProducts100.cpuPerRequest.vsPassThrough',
          description: "Proxy process CPU time per request of the sandbox's 100-product list page: the validating proxy (forwarding + judging) vs the minimal pass-through (what judging costs a busy proxy; informational)",
          unit: 'µs',
          subject: { label: validating.label, value: median(rounds.validating.cpu) },
          baseline: { label: plain.label, value: median(rounds.plain.cpu) },
          target: { op: '<=', ratio: 3 },
          notes,
        }),
      ];
    } finally {
      await dispatcher.close();
      for (const side of [validating, plain, upstream]) stop(side);
      await Promise.all([validating, plain, upstream].map(exited));
    }
  },
};

export default suite;

/** CPU milliseconds (user + system) the side's process has used so far, from /proc (Linux; 0 elsewhere). */
function cpuMs(side: Side): number {
  try {
    const fields = readFileSync(`/proc/${side.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}
