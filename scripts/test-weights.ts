// `npm run test:weights`: writes test/weights.json, the seconds each test file took in the last full
// `npm test` on this machine (vitest's own cache), for test/setup/sequencer.ts to start the longest files
// first on a clean clone, where that cache does not exist. Files under a second are left out (they take
// the sequencer's default). Run it after a full run when files were added or got much slower; a stale
// entry only costs a worse order, never a skipped file.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/repo.js';

const cacheDir = path.join(repoRoot, 'node_modules/.vite/vitest');
const out = path.join(repoRoot, 'test/weights.json');

let entries: Array<[string, { duration?: number }]> = [];
try {
  for (const hash of readdirSync(cacheDir)) {
    const parsed = JSON.parse(readFileSync(path.join(cacheDir, hash, 'results.json'), 'utf8')) as { results?: Array<[string, { duration?: number }]> };
    entries = entries.concat(parsed.results ?? []);
  }
} catch (error) {
  process.stderr.write(`test:weights: ${path.relative(repoRoot, cacheDir)}: no vitest results to read (${(error as Error).message.split('\n')[0]}); run \`npm test\` first\n`);
  process.exit(2);
}
const weights: Record<string, number> = {};
for (const [key, result] of entries) {
  const file = key.slice(key.indexOf(':') + 1);
  if (typeof result.duration === 'number' && result.duration >= 1000) weights[file] = Math.round(result.duration / 1000);
}
const sorted = Object.fromEntries(Object.entries(weights).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(`test:weights: ${Object.keys(sorted).length} files of a second or more written to test/weights.json\n`);
