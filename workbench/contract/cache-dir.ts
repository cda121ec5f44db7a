// Where the tools keep what they cache on disk: one folder, `.cache/storefront-contract` inside the
// project's `node_modules` (the usual home of tool caches: ignored by git, removed by a clean install), or
// inside the user's home when there is no project. The cache of dereferenced documents
// (`document-cache.ts`) keeps its entries at its top; the docs site cache of a clone
// (`scripts/docs/build-cache.ts`, build time) keeps its sites under `docs/`.
import path from 'node:path';

/** The cache folder, relative to the `node_modules` folder (or home directory) that holds it. */
export const TOOLS_CACHE = path.join('.cache', 'storefront-contract');

/** The tools' cache folder inside `parent`: a project's `node_modules` folder, or a home directory. */
export function toolsCacheDir(parent: string): string {
  return path.join(parent, TOOLS_CACHE);
}
