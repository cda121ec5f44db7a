// Each package's `dependencies` are exactly what its shipped entries (and, for the tools, the bin)
// import at run time: nothing a user needs is left in devDependencies (the bin would crash where the
// package is installed), and no build tool rides along. Static imports come from esbuild's metafile; the
// few modules loaded lazily with createRequire are found by their `require('...')` literal. The library
// stays light: its only run-time dependency is openapi-fetch.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { LIBRARY, TOOLS, publishedPackage, publishedPackages } from '../helpers/manifests.js';

const packageOf = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);
const builtins = new Set(builtinModules);

async function runtimeImports(entries: string[]): Promise<Set<string>> {
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

describe.each(publishedPackages.map((p) => [p.manifest.name, p] as const))('%s dependencies', (_name, pkg) => {
  it('are exactly the packages its entries (and bin) load at run time (type-only peers aside)', async () => {
    const bins = Object.values(pkg.manifest.bin ?? {}).map((target) => path.join(repoRoot, target.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')));
    const used = [...(await runtimeImports([...pkg.entries.map(([, file]) => file), ...bins]))].filter((name) => !(name in (pkg.manifest.peerDependencies ?? {}))).sort();
    expect(Object.keys(pkg.manifest.dependencies).sort()).toEqual(used);
  });
});

describe('the two packages', () => {
  it('the library depends on openapi-fetch alone; the tools on the library at its exact version', () => {
    const library = publishedPackage(LIBRARY).manifest;
    expect(Object.keys(library.dependencies)).toEqual(['openapi-fetch']);
    expect(publishedPackage(TOOLS).manifest.dependencies[LIBRARY]).toBe(library.version);
  });

  it('the bin is the compiled CLI, in the tools package only', () => {
    expect(publishedPackage(TOOLS).manifest.bin).toEqual({ 'storefront-contract': './dist/cli/storefront-contract.js' });
    expect(publishedPackage(LIBRARY).manifest.bin).toBeUndefined();
  });
});
