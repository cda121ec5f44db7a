// The validating proxy's cost per request, against a minimal node:http + undici pass-through written in the
// bench (bench/lib/proxy-server.ts), both child processes in front of the same sandbox child: the sandbox's
// 100-product list page (about 600 KB: the heaviest answer to judge, its JSON parse alone about 1.5 ms) and
// its country list (about 1 KB: what every exchange costs whatever its body). Latency: one request at a
// time (a client waiting on each answer, as an app does) over one kept-alive connection per side, in short
// rounds taken in turn (validating, plain, the sandbox directly; the order flips every round) so a burst of
// load elsewhere on the shared machine hits every side alike; each side's figure is the median of its
// rounds' mean latency. The proxy judges on a worker thread once the client has its answer, so what a
// client waits for is the forwarding and the copy; the judging competes only for CPU. The CPU each proxy
// process spent per request (both its threads, from /proc, median of rounds) is what judging costs a busy
// proxy. BENCH_PROXY_AA=1 runs the plain pass-through on both sides: the spread of that A/A run is the
// noise floor of the machine (bench/NOTES.md).
import path from 'node:path';
import { Agent, request } from 'undici';
import { median } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { BENCH_STORE_KEY, exited, freePort, sandboxToken, start, stop, type Side } from './mock.js';
import { childCpuMs } from '../lib/child-cpu.js';

const ROUNDS = 30;
const PER_ROUND = 40;
const PAGES = { list: '/api/v1/bench-store/storefront/catalog/products?limit=100', countries: '/api/v1/bench-store/storefront/common/countries' } as const;
const PROBE = { path: '/api/v1/bench-store/storefront/auth/anonymous', method: 'POST', headers: BENCH_STORE_KEY };

type SideName = 'validating' | 'plain' | 'direct';
type Page = keyof typeof PAGES;

const suite: BenchSuite = {
  name: 'proxy',
  async run() {
    let upstream: Side | undefined;
    let validating: Side | undefined;
    let plain: Side | undefined;
    const agents = { validating: new Agent({ connections: 1 }), plain: new Agent({ connections: 1 }), direct: new Agent({ connections: 1 }) };
    try {
      const [upstreamPort, validatingPort, plainPort] = await Promise.all([freePort(), freePort(), freePort()]);
      const tsx = ['--conditions=sfc-source', '--import', 'tsx'];
      upstream = await start('sandbox', [...tsx, path.join(repoRoot, 'bench/lib/sandbox-server.ts'), String(upstreamPort)], upstreamPort, PAGES.list, PROBE);
      const roots = { validating: `http://127.0.0.1:${validatingPort}`, plain: `http://127.0.0.1:${plainPort}`, direct: `http://127.0.0.1:${upstreamPort}` };
      const proxyArgs = (kind: string, port: number) => [...tsx, path.join(repoRoot, 'bench/lib/proxy-server.ts'), kind, String(port), roots.direct];
      // Both answer the probe (a POST through them to the sandbox) before they are measured.
      const calibrate = process.env.BENCH_PROXY_AA === '1';
      validating = await start(calibrate ? 'node:http + undici pass-through (A/A)' : 'storefront-contract proxy (validating)', proxyArgs(calibrate ? 'plain' : 'validating', validatingPort), validatingPort, PAGES.list, PROBE);
      plain = await start('node:http + undici pass-through', proxyArgs('plain', plainPort), plainPort, PAGES.list, PROBE);
      const headers = { authorization: `Bearer ${await sandboxToken(upstreamPort)}` };
      const get = async (side: SideName, page: Page) => {
        const res = await request(`${roots[side]}${PAGES[page]}`, { headers, dispatcher: agents[side] });
        const bytes = Buffer.from(await res.body.arrayBuffer());
        if (res.statusCode !== 200) throw new Error(`${side} ${page} answered ${res.statusCode}`);
        return bytes;
      };
      // The same bytes through both proxies as from the sandbox itself.
      const sizes: Record<Page, number> = { list: 0, countries: 0 };
      for (const page of ['list', 'countries'] as const) {
        const [a, b, direct] = await Promise.all([get('validating', page), get('plain', page), get('direct', page)]);
        if (!a.equals(direct) || !b.equals(direct)) throw new Error(`a proxy changed the bytes of ${page}; the comparison would be unfair`);
        sizes[page] = direct.length;
      }
      const procs = { validating, plain } as Record<SideName, Side | undefined>;
      const ms = { list: { validating: [], plain: [], direct: [] }, countries: { validating: [], plain: [], direct: [] } } as Record<Page, Record<SideName, number[]>>;
      const cpu = { validating: [] as number[], plain: [] as number[] };
      const round = async (side: SideName, page: Page, record: boolean) => {
        const used = procs[side] ? cpuMs(procs[side]!) : 0;
        const t0 = performance.now();
        for (let i = 0; i < PER_ROUND; i++) await get(side, page);
        if (!record) return;
        ms[page][side].push((performance.now() - t0) / PER_ROUND);
        if (page === 'list' && side !== 'direct') cpu[side].push(((cpuMs(procs[side]!) - used) * 1000) / PER_ROUND);
        if (process.env.BENCH_VERBOSE === '1') process.stderr.write(`proxy: ${page} ${side} ${ms[page][side].at(-1)!.toFixed(3)} ms per request${page === 'list' && side !== 'direct' ? `, ${cpu[side].at(-1)!.toFixed(0)} µs CPU per request` : ''}\n`);
      };
      const order: SideName[] = ['validating', 'plain', 'direct'];
      // Warm-up (JIT, pools, the judge's worker), not recorded.
      for (let r = 0; r < 3; r++) for (const page of ['list', 'countries'] as const) for (const side of order) await round(side, page, false);
      for (let r = 0; r < ROUNDS; r++) for (const page of ['list', 'countries'] as const) for (const side of r % 2 ? [...order].reverse() : order) await round(side, page, true);
      const list = (xs: number[], digits = 2) => xs.map((x) => x.toFixed(digits)).join('/');
      const notes = (page: Page) =>
        `GET ${PAGES[page]} with a sandbox token (${sizes[page]} bytes), one request at a time over one kept-alive connection per side; ${ROUNDS} rounds of ${PER_ROUND} requests per side, taken in turn (validating, plain, direct; reversed every other round) after 3 warm-up rounds, medians of the rounds; the sandbox directly: ${median(ms[page].direct).toFixed(2)} ms; rounds ms subject ${list(ms[page].validating)}, baseline ${list(ms[page].plain)}, direct ${list(ms[page].direct)}${page === 'list' ? `; rounds CPU µs per request subject ${list(cpu.validating, 0)}, baseline ${list(cpu.plain, 0)}` : ''}`;
      return [
        metric({
          id: 'proxy.listProducts100.latency.vsPassThrough',
          description: "Latency per request of the sandbox's 100-product list page (about 600 KB) through the validating proxy (forwarding; judging on its worker thread) vs through a minimal node:http + undici pass-through, one request at a time",
          unit: 'ms',
          subject: { label: validating.label, value: median(ms.list.validating) },
          baseline: { label: plain.label, value: median(ms.list.plain) },
          target: { op: '<=', ratio: 1.2 },
          notes: notes('list'),
        }),
        metric({
          id: 'proxy.listCountries.latency.vsPassThrough',
          description: "Latency per request of the sandbox's country list (about 1 KB) through the validating proxy vs through a minimal node:http + undici pass-through, one request at a time",
          unit: 'ms',
          subject: { label: validating.label, value: median(ms.countries.validating) },
          baseline: { label: plain.label, value: median(ms.countries.plain) },
          target: { op: '<=', ratio: 1.2 },
          notes: notes('countries'),
        }),
        metric({
          id: 'proxy.listProducts100.cpuPerRequest.vsPassThrough',
          description: "Proxy process CPU time per request (all its threads) of the sandbox's 100-product list page: the validating proxy (forwarding + judging) vs the minimal pass-through: what judging costs a busy proxy",
          unit: 'µs',
          subject: { label: validating.label, value: median(cpu.validating) },
          baseline: { label: plain.label, value: median(cpu.plain) },
          target: { op: '<=', ratio: 3 },
          notes: notes('list'),
        }),
      ];
    } finally {
      await Promise.all(Object.values(agents).map((a) => a.close()));
      for (const side of [validating, plain, upstream]) stop(side);
      await Promise.all([validating, plain, upstream].map(exited));
    }
  },
};

export default suite;

/** CPU milliseconds the side's process has used so far. */
const cpuMs = (side: Side): number => childCpuMs(side.child.pid);
