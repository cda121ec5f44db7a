// Issue 28: the Arazzo export of the recorded scenarios run by another tool, against certification
// replaying the recordings themselves. Subject: `redocly respect` on the workflows it can run whole
// (every scenario without an oversized body: browse-catalog, customer, pos), one process. Baseline:
// `storefront-contract certify` (replay of every recorded scenario with every rule, no generated cases),
// one process. Both against the same sandbox in this process, as CLIs (start-up included), alternating
// rounds; the figure is milliseconds per exchange sent. It informs conformance/README.md's answer to
// "should certification read the Arazzo files directly?".
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { alternateRuns, type Tally } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { arazzoFile } from '../../conformance/rest/arazzo.js';
import { loadScenarios, trafficDir } from '../../conformance/rest/load.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { createWorkbench, sandboxApiKey } from '../../workbench/index.js';

const ROUNDS = 4;

const suite: BenchSuite = {
  name: 'arazzo',
  async run() {
    const scenarios = loadScenarios();
    const whole = scenarios.filter((s) => !s.steps.some((st) => st.entry.request.postData?._truncated));
    const steps = whole.reduce((n, s) => n + s.steps.length, 0);
    const workbench = await createWorkbench({ port: 0, quiet: true, webhooks: false });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-bench-arazzo-'));
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', STOREFRONT_API_KEY: sandboxApiKey('demo-store') };
    const exec = promisify(execFile);
    /** One CLI run: its wall time and the exchanges it sent (`count` reads them from its output). */
    const timed = async (command: string, args: string[], count: (stdout: string) => number): Promise<Tally> => {
      const started = performance.now();
      const { stdout } = await exec(command, args, { cwd: repoRoot, env, maxBuffer: 64 * 1024 * 1024 }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
        throw new Error(`${path.basename(command)} ${args[0]} exited ${error.code}:\n${String(error.stderr ?? error.stdout ?? '').slice(-2000)}`);
      });
      return { n: count(stdout), ms: performance.now() - started };
    };
    let exchanges = 0;
    try {
      const total = await alternateRuns(
        {
          respect: () =>
            timed(path.join(repoRoot, 'node_modules/.bin/redocly'), ['respect', ...whole.map((s) => arazzoFile(trafficDir, s.name)), '--server', `storefront=${workbench.url}/api/v1/demo-store/storefront`, '--input', `api_key=${sandboxApiKey('demo-store')}`], () => steps),
          certify: () =>
            timed(process.execPath, ['--conditions=sfc-source', '--import', 'tsx', 'cli/storefront-contract.ts', 'certify', '--base-url', workbench.url, '--store-id', 'demo-store', '--report-dir', dir], (stdout) => {
              exchanges = Number(/(\d+) exchanges judged/.exec(stdout)?.[1] ?? NaN);
              if (!exchanges) throw new Error(`certify printed no "exchanges judged" line:\n${stdout.slice(-1000)}`);
              return exchanges;
            }),
        },
        ROUNDS,
      );
      return [
        metric({
          id: 'arazzo.respect.vs.certify.perExchange',
          description: `redocly respect running the Arazzo export (${whole.map((s) => s.name).join(', ')}: ${steps} steps) vs storefront-contract certify replaying every recording (${exchanges} exchanges), both CLIs with start-up, against one sandbox`,
          unit: 'ms per exchange',
          subject: { label: 'respect (Arazzo)', value: total.respect.ms / total.respect.n },
          baseline: { label: 'certify (HAR + bindings)', value: total.certify.ms / total.certify.n },
          target: { op: '>=', ratio: 1 },
          notes: `${ROUNDS} alternating rounds per side after one warm-up each; target: certify reading its recordings is no slower per exchange than a runner of the export`,
        }),
      ];
    } finally {
      await workbench.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
