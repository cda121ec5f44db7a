// npm run generate            writes generated/ from spec/
// npm run check:generated     regenerates into a temporary folder and fails, naming the stale files,
//                             when generated/ differs from what the spec produces.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listFiles } from './lib/files.js';
import { repoRoot } from './lib/repo.js';
import { bundleAll } from './generate/bundle.js';
import { renderAll } from './generate/render.js';

const generatedDir = path.join(repoRoot, 'generated');


async function writeTree(dir: string, files: Map<string, string>) {
  for (const [rel, content] of files) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

async function main() {
  if (process.argv.includes('--help')) {
    console.log('usage: npm run generate                 writes generated/ from spec/\n       npm run check:generated          (--check) fails, naming each stale file, when generated/ differs from the spec');
    return;
  }
  const check = process.argv.includes('--check');
  const started = Date.now();
  process.stderr.write('generate: bundling spec documents with redocly...\n');
  const bundled = await bundleAll();
  process.stderr.write('generate: rendering types, validators, operation and webhook metadata...\n');
  const files = await renderAll(bundled);

  if (!check) {
    await rm(generatedDir, { recursive: true, force: true });
    await writeTree(generatedDir, files);
    console.log(`generate: wrote ${files.size} files to generated/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return;
  }

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'sfc-generated-'));
  try {
    await writeTree(tmp, files);
    const expected = await listFiles(tmp);
    const actual = await listFiles(generatedDir);
    const problems: string[] = [];
    for (const rel of expected) {
      if (!actual.includes(rel)) problems.push(`missing: generated/${rel}`);
      else if ((await readFile(path.join(tmp, rel), 'utf8')) !== (await readFile(path.join(generatedDir, rel), 'utf8'))) {
        problems.push(`stale:   generated/${rel}`);
      }
    }
    for (const rel of actual) if (!expected.includes(rel)) problems.push(`extra:   generated/${rel} (no longer produced by the spec)`);
    if (problems.length) {
      console.error('check:generated: generated/ does not match the spec:');
      for (const p of problems) console.error(`  ${p}`);
      console.error('Run `npm run generate` and commit the result.');
      process.exit(1);
    }
    console.log(`check:generated: generated/ matches the spec (${expected.length} files)`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`generate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
