// npm run build: compiles and stages the two packages this repository publishes, ready for `npm pack`.
//   packages/storefront-contract/dist/             the library (src/ + generated/), compiled with its .d.ts;
//                                                  the workspace link resolves the tools' imports to it
//   dist/packages/storefront-contract/             the library as packed: manifest, README, dist/
//   dist/packages/storefront-contract-tools/       the tools as packed: manifest, README, dist/ (workbench,
//                                                  conformance, cli), and what they read at run time with
//                                                  the repository's layout: spec/, conformance/traffic/,
//                                                  docs/site/ (built straight into the stage), examples/receivers/
// Each package's manifest is the committed packages/<name>/package.json; its `files` list says what is
// staged, so a new shipped folder is one manifest line. `npm pack dist/packages/<name>` packs one.
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './lib/repo.js';
import { runTool } from './lib/run-tool.js';
import { spawn } from 'node:child_process';

const started = Date.now();
const log = (line: string) => console.log(`build: ${line} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
const stageRoot = path.join(repoRoot, 'dist/packages');

async function tsc(project: string): Promise<void> {
  const result = await runTool('tsc', ['-p', project], { capture: true });
  if (result.code !== 0) {
    process.stderr.write(`build: tsc -p ${project} failed:\n${result.stdout}${result.stderr}`);
    process.exit(1);
  }
  log(`compiled ${project}`);
}

function docs(): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = path.join(stageRoot, 'storefront-contract-tools/docs/site');
    const child = spawn(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'scripts/docs.ts', '--out', out], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build: npm run docs failed (exit ${code}); run it alone to see why`))));
  });
}

/**
 * Copies what a manifest's `files` names into the package's stage. A name is looked up in the package
 * folder first (its own dist/, README.md), then at the repository root (spec/, conformance/traffic/...).
 */
async function stage(folder: string, alreadyStaged: string[] = []): Promise<string> {
  const source = path.join(repoRoot, 'packages', folder);
  const manifest = JSON.parse(await readFile(path.join(source, 'package.json'), 'utf8')) as { files: string[] };
  const target = path.join(stageRoot, folder);
  await mkdir(target, { recursive: true });
  await cp(path.join(source, 'package.json'), path.join(target, 'package.json'));
  for (const entry of manifest.files) {
    if (alreadyStaged.includes(entry)) continue;
    const own = path.join(source, entry);
    const from = (await isRealPath(own)) ? own : path.join(repoRoot, entry);
    await cp(from, path.join(target, entry), { recursive: true, dereference: true, filter: (f) => !f.endsWith('.test.ts') });
  }
  return target;
}

async function isRealPath(file: string): Promise<boolean> {
  const { lstat } = await import('node:fs/promises');
  return lstat(file).then((s) => !s.isSymbolicLink(), () => false);
}

await rm(stageRoot, { recursive: true, force: true });
await rm(path.join(repoRoot, 'packages/storefront-contract/dist'), { recursive: true, force: true });
await tsc('tsconfig.lib.json');
await Promise.all([tsc('tsconfig.tools.json'), docs().then(() => log('built the docs site'))]);
await stage('storefront-contract');
await stage('storefront-contract-tools', ['dist', 'docs/site']);
log(`staged ${path.relative(repoRoot, stageRoot)}/storefront-contract and storefront-contract-tools`);
