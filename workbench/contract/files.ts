// Where the tools find what they ship beside their code: the contract's documents (spec/), the recorded
// traffic (conformance/traffic/) and the built documentation site (docs/site/). In a clone these are the
// repository's own folders; in the installed `storefront-contract-tools` package the build copies them
// to the package root with the same layout, so one lookup serves both.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOLS_PACKAGE = 'storefront-contract-tools';

/** The nearest folder above `start` holding `spec/openapi/storefront.yaml`. */
function findAssetsRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'spec/openapi/storefront.yaml'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`${TOOLS_PACKAGE}: no spec/openapi/storefront.yaml above ${start}; reinstall the package`);
  }
}

/** The repository root in a clone, the package root once installed. */
export const assetsRoot = findAssetsRoot(path.dirname(fileURLToPath(import.meta.url)));
export const specDir = path.join(assetsRoot, 'spec');
export const trafficDir = path.join(assetsRoot, 'conformance/traffic');
export const docsSiteDir = path.join(assetsRoot, 'docs/site');

export const documents = {
  storefront: path.join(specDir, 'openapi/storefront.yaml'),
  admin: path.join(specDir, 'openapi/admin.yaml'),
  webhooks: path.join(specDir, 'asyncapi/webhooks.yaml'),
} as const;

export type DocumentName = keyof typeof documents;

/**
 * The workbench's own API (the back office, clocks, faults, the simulator's trigger, the console's reads
 * under /__simulator): designed here, outside the platform's contract, so it is not one of `documents`
 * (the contract's diff, changelog and certification never read it). Linted, generated and published on
 * the docs site beside them.
 */
export const workbenchDocument = path.join(specDir, 'workbench/openapi.yaml');

/** The tools package's manifest: at the package root once installed, under packages/ in a clone. */
function readToolsManifest(): { name: string; version: string } {
  for (const file of [path.join(assetsRoot, 'package.json'), path.join(assetsRoot, 'packages', TOOLS_PACKAGE, 'package.json')]) {
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string };
    if (manifest.name === TOOLS_PACKAGE) return manifest;
  }
  throw new Error(`${TOOLS_PACKAGE}: its package.json was not found from ${assetsRoot}; reinstall the package`);
}

export const toolsPackage: Readonly<{ name: string; version: string }> = readToolsManifest();

/** True when a document file exists (the admin document is written separately; without it the admin mount is off). */
export function documentExists(file: string): boolean {
  return existsSync(file);
}
