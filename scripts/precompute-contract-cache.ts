// npx tsx --conditions=sfc-source scripts/precompute-contract-cache.ts --out <dir>
// Writes the cache entries of the three shipped documents (workbench/contract/document-cache.ts) into
// <dir>: `npm run build` puts them in the tools package's dist/contract-cache/, so an installed
// `storefront-contract mock` starts without parsing YAML or resolving a `$ref`. The entries hold paths
// relative to each document's folder and the hash of every file, so they serve the staged spec/ (a copy
// of this one) and are ignored the moment any file differs.
import path from 'node:path';
import { entryName, writeEntry } from '../workbench/contract/document-cache.js';
import { dereferenceFile } from '../workbench/contract/model.js';
import { documents } from './lib/repo.js';
import { readFile, rm } from 'node:fs/promises';

const at = process.argv.indexOf('--out');
const out = at === -1 ? undefined : process.argv[at + 1];
if (!out || out.startsWith('--')) {
  console.error('precompute-contract-cache: --out needs a folder, e.g. --out dist/packages/storefront-contract-tools/dist/contract-cache');
  process.exit(2);
}
await rm(path.resolve(out), { recursive: true, force: true });
for (const file of Object.values(documents)) await writeEntry(path.resolve(out), entryName(await readFile(file)), file, await dereferenceFile(file));
console.log(`precompute-contract-cache: ${Object.keys(documents).length} documents in ${out}`);
