// What an app built by Vite loads: a real `vite build` (production, Vite's defaults: index.html
// entry, minify, code splitting, module preload) of a one-module app in a fresh folder, written to
// disk, by the current Vite major: the `vite8` dev dependency (an npm alias of vite@8), since the
// repository's own `vite` stays on 7 for vitest 3, which supports Vite 5 to 7 (vitest 4 and 5 take
// Vite 8, but 5 needs Node 22 and both change the test runner's configuration). Vite 8 bundles with
// Rolldown, and the same app loads more with it than with Vite 7's Rollup. The package resolves as an installed dependency would, by its `exports`, through the
// `sfc-source` condition to the sources. Initial JS is the entry chunk and, transitively, the chunks
// it imports statically, each gzipped on its own as a server would send it; chunks reached only by
// dynamic import() are lazy.
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, defaultClientConditions, version as viteVersion, type Rollup } from 'vite8';
import { repoRoot } from '../../scripts/lib/repo.js';

export interface ViteChunk {
  fileName: string;
  /** Absolute ids of the modules in the chunk (`\0`-prefixed for virtual ones). */
  moduleIds: string[];
  isDynamicEntry: boolean;
  /** Loads with the app: the entry or one of its static imports, transitively. */
  initial: boolean;
  gzip: number;
}

export interface ViteAppSize {
  /** Gzipped bytes of the initial chunks. */
  initialGzip: number;
  chunks: ViteChunk[];
  /** The Vite that built it. */
  vite: string;
}

const render = `.then(({ data }) => {\n  document.body.textContent = JSON.stringify(data);\n});\n`;

/** The baseline app: openapi-fetch alone making the same calls (anonymous sign-in with the key, then the list call with the token), its result rendered. */
export const OPENAPI_FETCH_APP = `import createClient from 'openapi-fetch';

const client = createClient({ baseUrl: 'https://api.example.com/api/v1/demo-store/storefront' });
client
  .POST('/auth/anonymous', { headers: { 'X-Api-Key': 'demo-key' } })
  .then(({ data }) => client.GET('/catalog/products', { params: { query: { page: 1, limit: 20 } }, headers: { Authorization: \`Bearer \${data.content.access_token}\` } }))${render}`;

/** The same app on the typed client: anonymous sign-in, then the list call. `options` adds client options (`validate: 'strict'`). */
export const storefrontApp = (options = '') => `import { createStorefrontClient } from 'storefront-contract';

const client = createStorefrontClient({ baseUrl: 'https://api.example.com', storeId: 'demo-store', apiKey: 'demo-key'${options ? `, ${options}` : ''} });
client
  .signInAnonymously()
  .then(() => client.GET('/catalog/products', { params: { query: { page: 1, limit: 20 } } }))${render}`;

const INDEX_HTML = '<!doctype html>\n<html>\n  <body>\n    <script type="module" src="/main.js"></script>\n  </body>\n</html>\n';

/** Builds `main` (the app's one module, JavaScript) with Vite and measures what it loads. */
export async function viteAppSize(main: string): Promise<ViteAppSize> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-vite-app-'));
  try {
    // The app's dependencies, installed as links: the library package (resolved by its exports) and openapi-fetch.
    await mkdir(path.join(dir, 'node_modules'));
    await symlink(path.join(repoRoot, 'packages/storefront-contract'), path.join(dir, 'node_modules/storefront-contract'), 'dir');
    await symlink(await realpath(path.join(repoRoot, 'node_modules/openapi-fetch')), path.join(dir, 'node_modules/openapi-fetch'), 'dir');
    await writeFile(path.join(dir, 'index.html'), INDEX_HTML);
    await writeFile(path.join(dir, 'main.js'), main);
    const result = await build({
      root: dir,
      configFile: false,
      envFile: false,
      logLevel: 'silent',
      mode: 'production',
      resolve: { conditions: ['sfc-source', ...defaultClientConditions] },
      build: { outDir: 'dist', emptyOutDir: true },
    });
    const output = (Array.isArray(result) ? result[0] : (result as Rollup.RollupOutput)).output;
    const chunks = output.filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
    const byName = new Map(chunks.map((c) => [c.fileName, c]));
    const initial = new Set<string>();
    const stack = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
    while (stack.length) {
      const name = stack.pop()!;
      if (initial.has(name)) continue;
      initial.add(name);
      stack.push(...byName.get(name)!.imports);
    }
    const measured: ViteChunk[] = [];
    for (const chunk of chunks) {
      // The bytes written to disk, as served.
      const gzip = gzipSync(await readFile(path.join(dir, 'dist', chunk.fileName))).length;
      measured.push({ fileName: chunk.fileName, moduleIds: chunk.moduleIds, isDynamicEntry: chunk.isDynamicEntry, initial: initial.has(chunk.fileName), gzip });
    }
    return { initialGzip: measured.filter((c) => c.initial).reduce((sum, c) => sum + c.gzip, 0), chunks: measured, vite: viteVersion };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A module id as a repository path (`generated/validators/storefront/listProducts.ts`), or undefined outside it. */
export function repoPath(moduleId: string): string | undefined {
  const rel = path.relative(repoRoot, moduleId.split('?')[0]);
  return rel.startsWith('..') || path.isAbsolute(rel) || rel.includes('node_modules') ? undefined : rel.split(path.sep).join('/');
}
