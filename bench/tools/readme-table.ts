// npx tsx bench/tools/readme-table.ts: puts the table of bench/results.json (the last `npm run bench`)
// in README.md, replacing the one there (bench/lib/readme-table.ts). The sentence above the table, with
// the run's date and load, is written by hand; this prints what its count must say.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/repo.js';
import type { Metric } from '../lib/metric.js';
import { metSentence, replaceTable } from '../lib/readme-table.js';

const readmePath = path.join(repoRoot, 'README.md');
const { metrics } = JSON.parse(readFileSync(path.join(repoRoot, 'bench/results.json'), 'utf8')) as { metrics: Metric[] };
writeFileSync(readmePath, replaceTable(readFileSync(readmePath, 'utf8'), metrics));
console.log(`readme-table: README.md has the table of bench/results.json (${metSentence(metrics)})`);
