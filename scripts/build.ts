// npm run build: compiles and stages the two packages this repository publishes, ready for `npm pack`.
//   packages/storefront-contract/dist/             the library (src/ + generated/), compiled with its .d.ts;
//                                                  the workspace link resolves the tools' imports to it
//   dist/packages/storefront-contract/             the library as packed: manifest, README, dist/
//   dist/packages/storefront-contract-tools/       the tools as packed: manifest, README, dist/ (workbench,
//                                                  conformance, cli), and what they read at run time with
//                                                  the repository's layout: spec/, conformance/traffic/,
//                                                  docs/site/ (built straight into the stage), examples/receivers/;
//                                                  and dist/msw/browser.js, the sandbox's browser build
//                                                  (scripts/build-msw-browser.ts), the `browser` condition
//                                                  of `storefront-contract-tools/msw`; dist/contract-cache/, the
//                                                  shipped documents dereferenced (scripts/precompute-contract-cache.ts);
//                                                  and dist/console/, the workbench console's page (scripts/build-console.ts);
//                                                  and npm-shrinkwrap.json, the tools' dependency tree as the
//                                                  repository's lock pins it (scripts/lib/shrinkwrap.ts)
// Each package's manifest is the committed packages/<name>/package.json; its `files` list says what is
// staged, so a new shipped folder is one manifest line. `npm pack dist/packages/<name>` packs one.
import { cp, lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './lib/repo.js';
import { runTool } from './lib/run-tool.js';
import { shrinkwrapOf } from './lib/shrinkwrap.js';

const started = Date.now();
const log = (line: string) => console.log(`build: ${line} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
const stageRoot = path.join(repoRoot, 'dist/packages');

/** Runs a tool of node_modules/.bin quietly; on failure prints its output and stops the build. */
async function step(label: string, tool: string, args: string[]): Promise<void> {
  const result = await runTool(tool, args, { capture: true });
  if (result.code !== 0) {
    process.stderr.write(`build: ${label} failed:\n${result.stdout}${result.stderr}`);
    process.exit(1);
  }
  log(label);
}

const tsc = (project: string) => step(`compiled ${project}`, 'tsc', ['-p', project]);
const docs = () => step('built the docs site', 'tsx', ['--conditions=sfc-source', 'scripts/docs.ts', '--out', path.join(stageRoot, 'storefront-contract-tools/docs/site')]);

/**
 * Copies what a manifest's `files` names into the package's stage. A name is looked up in the package
 * folder first (its own dist/, README.md), then at the repository root (spec/, conformance/traffic/...).
 */
async function stage(folder: string, alreadyStaged: string[] = []): Promise<void> {
  const source = path.join(repoRoot, 'packages', folder);
  const manifest = JSON.parse(await readFile(path.join(source, 'package.json'), 'utf8')) as { files: string[]; exports: unknown };
  const target = path.join(stageRoot, folder);
  await mkdir(target, { recursive: true });
  await writeFile(path.join(target, 'package.json'), `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
  for (const entry of manifest.files) {
    if (alreadyStaged.includes(entry)) continue;
    const own = path.join(source, entry);
    const from = (await isRealPath(own)) ? own : path.join(repoRoot, entry);
    await cp(from, path.join(target, entry), { recursive: true, dereference: true, filter: (f) => !f.endsWith('.test.ts') });
  }
}

/**
 * The manifest as published: the `sfc-source` condition (this repository's way to resolve the packages'
 * names to their TypeScript sources) is dropped, since those files are not shipped.
 */
function publishedManifest(manifest: Record<string, unknown>): Record<string, unknown> {
  const exports = Object.fromEntries(
    Object.entries(manifest.exports as Record<string, string | Record<string, string>>).map(([subpath, target]) => [
      subpath,
      typeof target === 'string' ? target : Object.fromEntries(Object.entries(target).filter(([condition]) => condition !== 'sfc-source')),
    ]),
  );
  return { ...manifest, exports };
}

/** The tools' npm-shrinkwrap.json (scripts/lib/shrinkwrap.ts): their whole tree, the library's included. */
async function writeShrinkwrap(folder: string): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(repoRoot, 'packages', folder, 'package.json'), 'utf8')) as { name: string; version: string };
  const shrinkwrap = shrinkwrapOf(path.join(repoRoot, 'package-lock.json'), folder, manifest);
  await writeFile(path.join(stageRoot, folder, 'npm-shrinkwrap.json'), `${JSON.stringify(shrinkwrap, null, 2)}\n`);
  // npm pack leaves it out unless `files` names it.
  const staged = path.join(stageRoot, folder, 'package.json');
  const published = JSON.parse(await readFile(staged, 'utf8')) as { files: string[] };
  await writeFile(staged, `${JSON.stringify({ ...published, files: [...published.files, 'npm-shrinkwrap.json'] }, null, 2)}\n`);
  log(`pinned ${Object.keys(shrinkwrap.packages).length - 1} packages of ${manifest.name} in its npm-shrinkwrap.json`);
}

async function isRealPath(file: string): Promise<boolean> {
  return lstat(file).then((s) => !s.isSymbolicLink(), () => false);
}

if (process.argv.includes('--help')) {
  console.log('usage: npm run build   compiles both packages and stages them in dist/packages/<name>/ (npm pack dist/packages/<name> packs one)');
  process.exit(0);
}
await rm(stageRoot, { recursive: true, force: true });
await rm(path.join(repoRoot, 'packages/storefront-contract/dist'), { recursive: true, force: true });
await tsc('tsconfig.lib.json');
await Promise.all([tsc('tsconfig.tools.json'), docs()]);
// From the sources (the sfc-source condition), as the tests bundle it.
await step("bundled the sandbox's browser build", 'tsx', ['--conditions=sfc-source', 'scripts/build-msw-browser.ts', '--out', path.join(stageRoot, 'storefront-contract-tools/dist/msw/browser.js')]);
// The shipped documents dereferenced once here, not at every start (workbench/contract/document-cache.ts).
await step('cached the dereferenced documents', 'tsx', ['--conditions=sfc-source', 'scripts/precompute-contract-cache.ts', '--out', path.join(stageRoot, 'storefront-contract-tools/dist/contract-cache')]);
await step("bundled the console's page", 'tsx', ['--conditions=sfc-source', 'scripts/build-console.ts', '--out', path.join(stageRoot, 'storefront-contract-tools/dist/console')]);
await stage('storefront-contract');
await stage('storefront-contract-tools', ['dist', 'docs/site']);
await writeShrinkwrap('storefront-contract-tools');
log(`staged ${path.relative(repoRoot, stageRoot)}/storefront-contract and storefront-contract-tools`);
