// package.json `dependencies` are exactly what the shipped entries and the bin import at run time:
// nothing a user needs is left in devDependencies (the bin would crash where the package is
// installed), and no build tool rides along. Static imports come from esbuild's metafile; the few
// modules loaded lazily with createRequire are found by their `require('...')` literal.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/contract/spec-files.js';

const manifest = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  bin: Record<string, string>;
};

const entries = [
  path.join(repoRoot, 'cli/storefront-contract.ts'),
  ...Object.values(manifest.exports).flatMap((t) => (typeof t === 'object' && t['sfc-source'] ? [path.join(repoRoot, t['sfc-source'])] : [])),
];

const packageOf = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
const builtins = new Set(builtinModules);

async function runtimeImports(): Promise<Set<string>> {
  const result = await build({ entryPoints: entries, bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', outdir: '/tmp/sfc-deps', splitting: true, packages: 'external', logLevel: 'silent' });
  const found = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) if (imported.external && !imported.path.startsWith('node:') && !builtins.has(imported.path)) found.add(packageOf(imported.path));
  }
  for (const input of Object.keys(result.metafile.inputs)) {
    if (input.includes('node_modules')) continue;
    const text = await readFile(path.join(repoRoot, input), 'utf8');
    for (const m of text.matchAll(/\brequire\('([^'./][^']*)'\)/g)) found.add(packageOf(m[1]));
  }
  return found;
}

describe('package dependencies', () => {
  it('are exactly the packages the bin and the public entries load at run time (type-only peers aside)', async () => {
    const used = [...(await runtimeImports())].filter((name) => !(name in (manifest.peerDependencies ?? {}))).sort();
    expect(Object.keys(manifest.dependencies).sort()).toEqual(used);
  });

  it('the bin is the compiled CLI', () => {
    expect(manifest.bin).toEqual({ 'storefront-contract': './dist/cli/storefront-contract.js' });
  });
});
