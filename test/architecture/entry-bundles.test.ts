// Every public entry of the library bundles (esbuild, as a consumer's bundler would) without Prism, a
// SQLite engine, an HTTP client library or framework code: those belong to the tools package. React and
// TanStack Query load only with ./react-query. The entries an app loads in a browser (the root, the
// validators, the contract, the query hooks, and the tools' back-office client) bundle for the browser
// platform.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';

import { LIBRARY, TOOLS, publishedPackage } from '../helpers/manifests.js';

const { entries } = publishedPackage(LIBRARY);
const BROWSER_ENTRIES = ['.', './validators', './contract', './react-query'];
const FORBIDDEN = /node_modules\/(@stoplight|better-sqlite3|libsql|@libsql|node-sqlite3-wasm|sql\.js|undici|fastify|@fastify|express|yaml)\//;
/** React and TanStack Query: only the ./react-query entry loads them (optional peer dependencies). */
const REACT = /node_modules\/(react|react-dom|scheduler|@tanstack|openapi-react-query)\//;

async function inputsOf(entry: string | { contents: string }): Promise<string[]> {
  const from = typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { contents: entry.contents, resolveDir: repoRoot } };
  const result = await build({ ...from, bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', logLevel: 'silent' });
  return Object.keys(result.metafile.inputs);
}

describe('public entries', () => {
  it('are the ones package.json exports', () => {
    expect(entries.map(([subpath]) => subpath)).toEqual(expect.arrayContaining(['.', './validators', './webhooks', './webhooks/node', './webhooks/fastify', './contract']));
  });

  it.each(entries)('%s bundles without engine or framework code', async (_subpath, entry) => {
    const inputs = await inputsOf(entry);
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.filter((input) => FORBIDDEN.test(input))).toEqual([]);
  });

  it.each(entries.filter(([subpath]) => subpath !== './react-query'))('%s loads no React and no TanStack Query', async (_subpath, entry) => {
    expect((await inputsOf(entry)).filter((input) => REACT.test(input))).toEqual([]);
  });

  it('./react-query loads openapi-react-query and TanStack Query, never react-dom', async () => {
    const inputs = await inputsOf(entries.find(([subpath]) => subpath === './react-query')![1]);
    expect(inputs.some((input) => input.includes('node_modules/openapi-react-query/'))).toBe(true);
    expect(inputs.some((input) => input.includes('node_modules/@tanstack/react-query/'))).toBe(true);
    expect(inputs.filter((input) => /node_modules\/react-dom\//.test(input))).toEqual([]);
  });

  it.each(entries.filter(([subpath]) => BROWSER_ENTRIES.includes(subpath)))('%s bundles for the browser (no node: built-in)', async (_subpath, entry) => {
    const result = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, platform: 'browser', format: 'esm', logLevel: 'silent' });
    expect(Object.keys(result.metafile.inputs).filter((input) => input.startsWith('node:'))).toEqual([]);
  });

  it('item 4: storefront-contract-tools/back-office bundles for the browser: no node: built-in, no dependency, none of the workbench but the client', async () => {
    const entry = publishedPackage(TOOLS).entries.find(([subpath]) => subpath === './back-office')?.[1];
    expect(entry).toBeDefined();
    const result = await build({ entryPoints: [entry!], bundle: true, write: false, metafile: true, platform: 'browser', format: 'esm', logLevel: 'silent', conditions: ['sfc-source'] });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.startsWith('node:') || input.includes('node_modules/'))).toEqual([]);
    // The client and its table of calls; nothing of the workbench's engine.
    expect(inputs.filter((input) => input.startsWith('workbench/')).sort()).toEqual(['workbench/back-office.ts', 'workbench/sandbox/back-office-api.ts', 'workbench/sandbox/back-office-client.ts']);
  });

  it('the check itself sees a forbidden package when one is imported', async () => {
    const inputs = await inputsOf({ contents: "import { request } from 'undici'; console.log(request);" });
    expect(inputs.some((input) => FORBIDDEN.test(input))).toBe(true);
  });
});
