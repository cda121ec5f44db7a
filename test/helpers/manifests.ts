// The two published packages' manifests (packages/<name>/package.json), with each public entry's source
// file (its `sfc-source` export target, symlinks resolved), for tests that check every entry.
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/repo.js';

export interface Manifest {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
  files: string[];
}

export interface PublishedPackage {
  folder: string;
  dir: string;
  manifest: Manifest;
  /** [subpath, absolute source file] of every export with an `sfc-source` target. */
  entries: Array<readonly [string, string]>;
}

export const LIBRARY = 'storefront-contract';
export const TOOLS = 'storefront-contract-tools';

export const publishedPackages: PublishedPackage[] = readdirSync(path.join(repoRoot, 'packages')).map((folder) => {
  const dir = path.join(repoRoot, 'packages', folder);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
  const entries = Object.entries(manifest.exports).flatMap(([subpath, target]) =>
    typeof target === 'object' && target['sfc-source'] ? [[subpath, realpathSync(path.join(dir, target['sfc-source']))] as const] : [],
  );
  return { folder, dir, manifest, entries };
});

export function publishedPackage(name: string): PublishedPackage {
  const found = publishedPackages.find((p) => p.manifest.name === name);
  if (!found) throw new Error(`no packages/*/package.json is named ${name}`);
  return found;
}
