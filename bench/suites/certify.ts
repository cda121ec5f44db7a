// Issue 8 benchmark: what the certification checks cost on top of replaying the traffic. Subject:
// replaying every recorded scenario with all rules (status, content type, schema, envelope,
// pagination, auth, invalid input, drift, consistency). Baseline: plain replay of the same requests
// (same bindings, so the requests are identical) without any rule and without parsing bodies that feed
// no capture. Same server (the embedded mock, strict auth), same run, alternating rounds.
import { alternateRuns, perSecond, type Tally } from '../lib/alternate.js';
import { metric, type BenchSuite, type Metric } from '../lib/metric.js';
import { createMockServer } from '../../workbench/mock/server.js';
import { replay } from '../../conformance/rest/engine.js';
import { loadScenarios, type Scenario } from '../../conformance/rest/load.js';

const ROUNDS = 6;
const API_KEY = 'sk_bench_certify_0000000000';

async function throughput(scenarios: Scenario[], baseUrl: string, concurrency: number, checks: boolean): Promise<Tally> {
  const run = await replay(scenarios, { baseUrl, inputs: { api_key: API_KEY, restricted_api_key: 'sk_bench_pos_0000' }, concurrency, checks });
  if (checks && run.results.some((r) => r.findings.some((f) => f.severity === 'error'))) throw new Error('the mock failed certification during the benchmark');
  return { n: run.results.length, ms: run.durationMs };
}

const suite: BenchSuite = {
  name: 'certify',
  async run() {
    const scenarios = loadScenarios();
    const mock = await createMockServer({ port: 0, quiet: true, strictAuth: true, preloadPrism: true });
    const metrics: Metric[] = [];
    try {
      for (const concurrency of [1, 10]) {
        // Warm-up (Prism for the Prefer-driven answers, validators, connections), then alternating rounds.
        const total = await alternateRuns(
          { checked: () => throughput(scenarios, mock.url, concurrency, true), plain: () => throughput(scenarios, mock.url, concurrency, false) },
          ROUNDS,
        );
        metrics.push(
          metric({
            id: `certify.checked.vs.plain.c${concurrency}`,
            description: `replaying the ${total.checked.n / ROUNDS} recorded exchanges with every rule vs plain replay of the same requests, concurrency ${concurrency}, against the embedded mock`,
            unit: 'exchanges/s',
            subject: { label: 'replay + checks', value: perSecond(total.checked) },
            baseline: { label: 'plain replay', value: perSecond(total.plain) },
            target: { op: '>=', ratio: 0.9 },
            notes: `${ROUNDS} alternating rounds per side after one warm-up each`,
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
