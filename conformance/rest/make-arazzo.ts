// npx tsx conformance/rest/make-arazzo.ts [--check]
// Writes conformance/traffic/<scenario>.arazzo.yaml, the Arazzo 1.0 workflow of every recorded scenario
// (arazzo.ts), beside its HAR and bindings. Run it after re-recording a scenario or editing its bindings;
// --check writes nothing and fails (exit 1), naming each stale file, when a file differs from what the
// recordings give (test/conformance/arazzo.test.ts runs the same comparison).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { arazzoFile, renderArazzo, scenarioToArazzo } from './arazzo.js';
import { loadScenarios, trafficDir } from './load.js';
import { contractModel } from '../../workbench/contract/model.js';

const check = process.argv.includes('--check');
const version = String((await contractModel('storefront')).document.info?.version ?? '1.0.0');
let stale = 0;
for (const scenario of loadScenarios()) {
  const file = arazzoFile(trafficDir, scenario.name);
  const text = renderArazzo(scenarioToArazzo(scenario, { version }), scenario);
  const rel = path.relative(process.cwd(), file);
  if (check) {
    const current = (() => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    })();
    if (current !== text) {
      stale++;
      process.stderr.write(`stale: ${rel} (npx tsx conformance/rest/make-arazzo.ts rewrites it)\n`);
    }
  } else {
    writeFileSync(file, text);
    process.stderr.write(`wrote ${rel} (${scenario.steps.length} steps)\n`);
  }
}
if (check) process.stderr.write(stale ? `make-arazzo: ${stale} stale file(s)\n` : 'make-arazzo: every Arazzo file matches its recording and bindings\n');
process.exit(stale ? 1 : 0);
