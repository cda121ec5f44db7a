// Issue 17 benchmark: the generative phase's rate. Subject: `certify --generate 20` against the sandbox,
// generated cases per second (generation, sending, judging by every response rule, learning ids).
// Baseline: plain replay of the recorded traffic against the same sandbox, exchanges per second (no
// rules, no body parsing beyond captures). Alternating rounds in one run.
import { alternateRuns, perSecond } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { certify } from '../../conformance/rest/certify.js';
import { replay } from '../../conformance/rest/engine.js';
import { loadScenarios } from '../../conformance/rest/load.js';
import { createWorkbench } from '../../workbench/index.js';

const ROUNDS = 4;
const API_KEY = 'sk_bench_generate_000000000';
const N = 20;

const suite: BenchSuite = {
  name: 'generate',
  async run() {
    const scenarios = loadScenarios();
    const sandbox = await createWorkbench({ port: 0, quiet: true, apiKeys: [API_KEY], webhooks: false, preloadPrism: true });
    try {
      const generated = async () => {
        const { certificate } = await certify({ baseUrl: sandbox.url, apiKey: API_KEY, generate: N, seed: 7, concurrency: 4 });
        if (certificate.verdict !== 'certified') throw new Error('the sandbox failed certification during the benchmark');
        return { n: certificate.generation!.cases, ms: certificate.generation!.durationMs };
      };
      const plain = async () => {
        const run = await replay(scenarios, { baseUrl: sandbox.url, inputs: { api_key: API_KEY }, concurrency: 4, checks: false });
        return { n: run.results.length, ms: run.durationMs };
      };
      const total = await alternateRuns({ generated, plain }, ROUNDS);
      return [
        metric({
          id: 'certify.generated.vs.replay',
          description: `certify --generate ${N} against the sandbox (${total.generated.n / ROUNDS} cases: generated, sent, judged by every response rule) vs plain replay of the recorded traffic, concurrency 4`,
          unit: 'requests/s',
          subject: { label: 'generated cases', value: perSecond(total.generated) },
          baseline: { label: 'plain replay', value: perSecond(total.plain) },
          target: { op: '>=', ratio: 0.5 },
          notes: `${ROUNDS} alternating rounds per side after one warm-up each`,
        }),
      ];
    } finally {
      await sandbox.close();
    }
  },
};

export default suite;
