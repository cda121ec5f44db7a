// Issue 8 benchmark: what the certification checks cost on top of replaying the traffic. Subject:
// replaying every recorded scenario with all rules (status, content type, schema, envelope,
// pagination, auth, invalid input, drift, consistency). Baseline: plain replay of the same requests
// (same bindings, so the requests are identical) without any rule and without parsing bodies that feed
// no capture. Same server (the embedded mock, strict auth), same run, alternating rounds.
import { median, perSecond, type Tally } from '../lib/alternate.js';
import { metric, type BenchSuite, type Metric } from '../lib/metric.js';
import { createMockServer } from '../../workbench/adapters/node-http.js';
import { replay } from '../../conformance/rest/engine.js';
import { loadScenarios, type Scenario } from '../../conformance/rest/load.js';

const ROUNDS = 9;
const REPLAYS_PER_ROUND = 4;
const API_KEY = 'sk_bench_certify_0000000000';

/** One round: the recordings replayed REPLAYS_PER_ROUND times (one replay is about 0.1 s: too short a round on a shared machine). */
async function throughput(scenarios: Scenario[], baseUrl: string, concurrency: number, checks: boolean): Promise<Tally> {
  const tally = { n: 0, ms: 0 };
  for (let i = 0; i < REPLAYS_PER_ROUND; i++) {
    const run = await replay(scenarios, { baseUrl, inputs: { api_key: API_KEY, restricted_api_key: 'sk_bench_pos_0000' }, concurrency, checks });
    if (checks && run.results.some((r) => r.findings.some((f) => f.severity === 'error'))) throw new Error('the mock failed certification during the benchmark');
    tally.n += run.results.length;
    tally.ms += run.durationMs;
  }
  return tally;
}

const suite: BenchSuite = {
  name: 'certify',
  async run() {
    const scenarios = loadScenarios();
    const mock = await createMockServer({ port: 0, quiet: true, strictAuth: true, preloadPrism: true });
    const metrics: Metric[] = [];
    try {
      for (const concurrency of [1, 10]) {
        // Warm-up (Prism for the Prefer-driven answers, validators, connections), then alternating rounds;
        // each side's figure is the median of its rounds (a sum let one slow round decide: c1 0.85 in one
        // full run, 0.97 in the next), with the CPU time per exchange of this process beside it.
        const rounds = { checked: [] as Array<{ rate: number; cpu: number }>, plain: [] as Array<{ rate: number; cpu: number }> };
        const sides = { checked: true, plain: false } as const;
        for (const checks of Object.values(sides)) await throughput(scenarios, mock.url, concurrency, checks);
        let exchanges = 0;
        for (let round = 0; round < ROUNDS; round++) {
          for (const side of round % 2 ? (['plain', 'checked'] as const) : (['checked', 'plain'] as const)) {
            const cpu = process.cpuUsage();
            const tally = await throughput(scenarios, mock.url, concurrency, sides[side]);
            const used = process.cpuUsage(cpu);
            exchanges = tally.n / REPLAYS_PER_ROUND;
            rounds[side].push({ rate: perSecond(tally), cpu: (used.user + used.system) / tally.n });
          }
        }
        const rate = (side: keyof typeof rounds) => median(rounds[side].map((r) => r.rate));
        const cpu = (side: keyof typeof rounds) => median(rounds[side].map((r) => r.cpu));
        metrics.push(
          metric({
            id: `certify.checked.vs.plain.c${concurrency}`,
            description: `replaying the ${exchanges} recorded exchanges with every rule vs plain replay of the same requests, concurrency ${concurrency}, against the embedded mock`,
            unit: 'exchanges/s',
            subject: { label: 'replay + checks', value: rate('checked') },
            baseline: { label: 'plain replay', value: rate('plain') },
            target: { op: '>=', ratio: 0.9 },
            notes: `${ROUNDS} alternating rounds of ${REPLAYS_PER_ROUND} replays per side after one warm-up each, medians (rounds: checked ${rounds.checked.map((r) => r.rate.toFixed(0)).join('/')}, plain ${rounds.plain.map((r) => r.rate.toFixed(0)).join('/')}); CPU per exchange (this process, the mock included) ${cpu('checked').toFixed(0)} vs ${cpu('plain').toFixed(0)} µs`,
          }),
        );
      }
    } finally {
      await mock.close();
    }
    return metrics;
  },
};

export default suite;
