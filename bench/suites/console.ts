// An open console costs the workbench little: storefront requests at up to about 1,000 req/s (autocannon's
// overall rate) against one workbench child process (bench/lib/sandbox-server.ts: sandbox, simulator and
// console, as `npm start` builds it), with a console's live log connected and reading (one Server-Sent
// Events client in this process, every entry of every request streamed to it) vs no console open. Rounds
// alternate on the same server so a burst of the shared machine's load hits both sides alike; each figure
// is the median of its rounds. The request log records every request in both (it is always on); what is
// measured is the stream. The server's CPU time per request (from /proc) is given too: at a fixed offered
// rate both sides may reach the rate, and CPU is then where a cost shows. A third side, a second child
// process started with `console: false` (no request log kept), gives what recording the log costs when no
// page is open (the price every workbench pays for the console).
// BENCH_CONSOLE_ROUND_S (default 2) and BENCH_CONSOLE_ROUNDS (default 6) shorten a quick check;
// BENCH_CONSOLE_AA=1 starts both processes with `console: false`, the noise floor of the request-log row.
import path from 'node:path';
import { createRequire } from 'node:module';
import { median } from '../lib/alternate.js';
import { childCpuMs } from '../lib/child-cpu.js';
import { openLiveLog, type LiveLog } from '../lib/live-log.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { BENCH_STORE_KEY, exited, freePort, sandboxToken, start, stop, type Side } from './mock.js';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<any>;

const RATE = 1000;
const CONNECTIONS = 10;
const ROUND_S = Number(process.env.BENCH_CONSOLE_ROUND_S ?? 2);
const ROUNDS = Number(process.env.BENCH_CONSOLE_ROUNDS ?? 6);
const PAGE = '/api/v1/bench-store/storefront/catalog/products?limit=20';
const PROBE = { path: '/api/v1/bench-store/storefront/auth/anonymous', method: 'POST', headers: BENCH_STORE_KEY };

/** The id of the newest entry of the request log (what a page reconnecting with Last-Event-ID has seen). */
async function lastLogged(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/__simulator/console/requests`);
  const { requests } = (await res.json()) as { requests: Array<{ id: number }> };
  return requests.at(-1)?.id ?? 0;
}

/**
 * A console page's live log: connected, reading every event; counts the request events it got. It starts
 * after the entries already held (Last-Event-ID), so what it counts are the round's own requests.
 */
async function openConsole(port: number): Promise<LiveLog> {
  return openLiveLog(`http://127.0.0.1:${port}`, await lastLogged(port));
}

const suite: BenchSuite = {
  name: 'console',
  async run() {
    let side: Side | undefined;
    let bare: Side | undefined;
    try {
      const [port, barePort] = await Promise.all([freePort(), freePort()]);
      const args = (p: number, ...more: string[]) => ['--conditions=sfc-source', '--import', 'tsx', path.join(repoRoot, 'bench/lib/sandbox-server.ts'), String(p), ...more];
      // BENCH_CONSOLE_AA=1: both processes without the console (the request-log row's noise floor; the stream rows then have no page to open).
      const calibrate = process.env.BENCH_CONSOLE_AA === '1';
      side = await start('workbench', calibrate ? args(port, '--no-console') : args(port), port, PAGE, PROBE);
      bare = await start('workbench, console: false', args(barePort, '--no-console'), barePort, PAGE, PROBE);
      const tokens = { console: await sandboxToken(port), bare: await sandboxToken(barePort) };
      const sides = { console: side, bare };
      // A fixed number of requests offered at RATE; the rate reached is that number over the time it took.
      const load = async (duration: number, which: 'console' | 'bare' = 'console') => {
        const server = sides[which];
        const token = tokens[which];
        const cpu = childCpuMs(server.child.pid);
        const t0 = performance.now();
        const r = await autocannon({ url: server.url, connections: CONNECTIONS, overallRate: RATE, pipelining: 1, amount: RATE * duration, headers: { authorization: `Bearer ${token}` } });
        const seconds = (performance.now() - t0) / 1000;
        return { requests: r.requests.total as number, seconds, errors: (r.errors + r.timeouts + r.non2xx) as number, cpuMs: childCpuMs(server.child.pid) - cpu, p99: r.latency.p99 as number };
      };
      // Warm-up (JIT, the world built, the page cached), not recorded.
      await load(2);
      await load(2, 'bare');
      const side3 = () => ({ rps: [] as number[], cpu: [] as number[], p99: [] as number[] });
      const rounds = { open: side3(), closed: side3(), off: side3() };
      let streamed = 0;
      let sent = 0;
      let errors = 0;
      for (let round = 0; round < ROUNDS; round++) {
        for (const name of round % 2 ? (['off', 'closed', 'open'] as const) : (['open', 'closed', 'off'] as const)) {
          const page = name === 'open' && !calibrate ? await openConsole(port) : undefined;
          const r = await load(ROUND_S, name === 'off' ? 'bare' : 'console');
          if (page) {
            // Let the stream deliver the round's last entries before counting.
            await new Promise((resolve) => setTimeout(resolve, 200));
            streamed += page.events();
            sent += r.requests;
            page.close();
          }
          errors += r.errors;
          rounds[name].rps.push(r.requests / r.seconds);
          rounds[name].cpu.push((r.cpuMs * 1000) / r.requests);
          rounds[name].p99.push(r.p99);
          if (process.env.BENCH_VERBOSE === '1') process.stderr.write(`console: round ${round} ${name} ${(r.requests / r.seconds).toFixed(0)} req/s, ${((r.cpuMs * 1000) / r.requests).toFixed(0)} µs CPU per request, p99 ${r.p99} ms\n`);
        }
      }
      const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join('/');
      const notes = `GET ${PAGE} with a sandbox token at an offered ${RATE} req/s (autocannon overallRate, ${RATE * ROUND_S} requests a round, ${CONNECTIONS} connections; req/s = requests / the round's wall time), ${ROUNDS} alternating rounds of ${ROUND_S} s per side after a 2 s warm-up, medians of the rounds; the open console received ${streamed} of the ${sent} requests of its rounds as events (any missing: dropped for a slow reader, or still in flight when counted); errors/non-2xx ${errors}; rounds req/s open ${list(rounds.open.rps)}, closed ${list(rounds.closed.rps)}, console off ${list(rounds.off.rps)}; CPU µs per request open ${list(rounds.open.cpu)}, closed ${list(rounds.closed.cpu)}, console off ${list(rounds.off.cpu)}; p99 ms open ${list(rounds.open.p99)}, closed ${list(rounds.closed.p99)}, console off ${list(rounds.off.p99)}`;
      return [
        metric({
          id: 'console.stream.rps',
          description: 'Storefront requests per second at an offered ~1,000 req/s with a console live log connected and reading vs no console open',
          unit: 'req/s',
          subject: { label: 'console open (SSE reading)', value: median(rounds.open.rps) },
          baseline: { label: 'no console open', value: median(rounds.closed.rps) },
          target: { op: '>=', ratio: 0.9 },
          notes,
        }),
        metric({
          id: 'console.stream.cpuPerRequest',
          description: 'Server CPU time per storefront request with a console live log connected and reading vs no console open',
          unit: 'µs',
          subject: { label: 'console open (SSE reading)', value: median(rounds.open.cpu) },
          baseline: { label: 'no console open', value: median(rounds.closed.cpu) },
          // The page's budget: a developer's debugging session may cost a third more CPU per request, never throughput.
          target: { op: '<=', ratio: 1.5 },
          notes,
        }),
        metric({
          id: 'console.requestLog.cpuPerRequest',
          description: 'Server CPU time per storefront request with the request log kept (the default workbench, no page open) vs a workbench started with console: false',
          unit: 'µs',
          subject: { label: 'request log kept, no page open', value: median(rounds.closed.cpu) },
          baseline: { label: 'console: false', value: median(rounds.off.cpu) },
          target: { op: '<=', ratio: 1.15 },
          notes,
        }),
      ];
    } finally {
      for (const s of [side, bare]) stop(s);
      await Promise.all([side, bare].map(exited));
    }
  },
};

export default suite;
