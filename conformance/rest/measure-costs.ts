// npx tsx --conditions=sfc-source conformance/rest/measure-costs.ts
// Writes conformance/traffic/costs.json: what a request of each operation costs, which `certify --shard`
// weighs its units by (shard.ts). Certifies the sandbox in process (the recordings replayed, then
// --generate 20 --seed 7), a warm-up and then ROUNDS runs, and keeps for each operation the mean time of a
// replayed step (one in flight) and of a generated case (while the generative phase has four operations
// in flight). Re-run it after adding an operation or a recording (test/conformance/shards.test.ts checks
// that the file names every operation of the contract and every operation the recordings replay); the
// numbers are committed, so every machine computes the same split.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkbench, sandboxApiKey } from '../../workbench/index.js';
import { certify } from './certify.js';
import { trafficDir } from './load.js';
import { COSTS_FILE, type RequestCosts } from './shard.js';

const ROUNDS = 3;
const GENERATE = 20;
const SEED = 7;

const sandbox = await createWorkbench({ port: 0, quiet: true, webhooks: false, preloadPrism: true });
try {
  const key = sandboxApiKey('demo-store');
  const options = { baseUrl: sandbox.url, apiKey: key, inputs: { restricted_api_key: key }, generate: GENERATE, seed: SEED };
  await certify(options);
  const sums = { replayedStep: new Map<string, [number, number]>(), generatedCase: new Map<string, [number, number]>() };
  for (let round = 0; round < ROUNDS; round++) {
    const { certificate } = await certify(options);
    for (const ex of certificate.exchanges) {
      if (ex.error || ex.status === undefined) continue;
      const table = ex.generated ? sums.generatedCase : sums.replayedStep;
      const [ms, n] = table.get(ex.operationId) ?? [0, 0];
      table.set(ex.operationId, [ms + ex.durationMs, n + 1]);
    }
  }
  const means = (table: Map<string, [number, number]>) =>
    Object.fromEntries([...table].sort(([a], [b]) => a.localeCompare(b, 'en')).map(([op, [ms, n]]) => [op, Number((ms / n).toFixed(2))]));
  const costs: RequestCosts = { replayedStep: means(sums.replayedStep), generatedCase: means(sums.generatedCase) };
  const file = path.join(trafficDir, COSTS_FILE);
  const doc = {
    $comment: `Written by conformance/rest/measure-costs.ts (npx tsx --conditions=sfc-source conformance/rest/measure-costs.ts), never by hand: the mean ms of a request of each operation, certifying the sandbox in process (--generate ${GENERATE} --seed ${SEED}, ${ROUNDS} runs). certify --shard weighs its units by them.`,
    ...costs,
  };
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  process.stderr.write(`wrote ${path.relative(process.cwd(), file)}: ${Object.keys(costs.replayedStep).length} operations replayed, ${Object.keys(costs.generatedCase).length} generated\n`);
} finally {
  await sandbox.close();
}
