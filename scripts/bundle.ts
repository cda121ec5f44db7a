// npm run bundle [-- --out <dir>]
// Writes each spec document as one file, for tools and people who want a single file: the bundled
// form (external files lifted into components, $refs kept) and the fully dereferenced form. Written as
// plain ASCII JSON (lib/ascii-json.ts): peer tools such as Specmatic refuse raw control characters.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { documents, repoRoot, type DocumentName } from './lib/repo.js';
import { bundleAll } from './generate/bundle.js';
import { asciiJson } from './lib/ascii-json.js';

if (process.argv.includes('--help')) {
  console.log('usage: npm run bundle [-- --out <dir>]   each spec document bundled and dereferenced, one JSON file each, in dist/spec/ (or <dir>)');
  process.exit(0);
}
const outIndex = process.argv.indexOf('--out');
const outDir = path.resolve(outIndex > 0 ? process.argv[outIndex + 1] : path.join(repoRoot, 'dist/spec'));
await mkdir(outDir, { recursive: true });
// The three documents are bundled at once (one Redocly process each).
const all = await bundleAll();
for (const name of Object.keys(documents) as DocumentName[]) {
  const bundled = all[name];
  await writeFile(path.join(outDir, `${name}.bundled.json`), `${asciiJson(bundled)}\n`);
  const dereferenced = await $RefParser.dereference(structuredClone(bundled), { dereference: { circular: 'ignore' } });
  await writeFile(path.join(outDir, `${name}.dereferenced.json`), `${asciiJson(dereferenced)}\n`);
  console.log(`bundle: ${path.relative(repoRoot, documents[name])} -> ${path.relative(process.cwd(), outDir)}/${name}.{bundled,dereferenced}.json`);
}
