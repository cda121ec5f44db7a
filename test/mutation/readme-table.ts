// npx tsx test/mutation/readme-table.ts: puts the mutation table of test/mutation/results/ (the last
// `npm run test:mutation` of each module) in README.md, replacing the one there (test/mutation/table.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/repo.js';
import { mutationModules } from './modules.js';
import { readResults } from './results-files.js';
import { replaceMutationSection } from './table.js';

const readmePath = path.join(repoRoot, 'README.md');
const results = readResults();
writeFileSync(readmePath, replaceMutationSection(readFileSync(readmePath, 'utf8'), mutationModules, results));
console.log(`mutation readme-table: README.md has the table of ${results.size} of ${mutationModules.length} module results`);
