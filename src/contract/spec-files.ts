// Where the contract's documents live; every script and test resolves them from here.
import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The package root: the nearest folder above this file holding this package's package.json. Walking up
 * (rather than a fixed `../..`) keeps it right both in the source tree and in the compiled `dist/`.
 */
function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'storefront-contract') return dir;
    if (path.dirname(dir) === dir) throw new Error(`storefront-contract: no package.json above ${start}`);
  }
}

export const repoRoot = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
export const specDir = path.join(repoRoot, 'spec');

export const documents = {
  storefront: path.join(specDir, 'openapi/storefront.yaml'),
  admin: path.join(specDir, 'openapi/admin.yaml'),
  webhooks: path.join(specDir, 'asyncapi/webhooks.yaml'),
} as const;

export type DocumentName = keyof typeof documents;
