// Every public entry of the package bundles (esbuild, as a consumer's bundler would) without Prism, a
// SQLite engine, an HTTP client library or framework code: those belong to the workbench and certification.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/contract/spec-files.js';

const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };
const entries = Object.entries(manifest.exports).flatMap(([subpath, target]) =>
  typeof target === 'object' && target['sfc-source'] ? [[subpath, path.join(repoRoot, target['sfc-source'])] as const] : [],
);
const FORBIDDEN = /node_modules\/(@stoplight|better-sqlite3|libsql|@libsql|node-sqlite3-wasm|sql\.js|undici|fastify|@fastify|express|yaml)\//;

async function inputsOf(entry: string | { contents: string }): Promise<string[]> {
  const from = typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { contents: entry.contents, resolveDir: repoRoot } };
  const result = await build({ ...from, bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', logLevel: 'silent' });
  return Object.keys(result.metafile.inputs);
}

describe('public entries', () => {
  it('are the ones package.json exports', () => {
    expect(entries.map(([subpath]) => subpath)).toEqual(expect.arrayContaining(['.', './validators', './webhooks', './webhooks/node', './webhooks/fastify']));
  });

  it.each(entries)('%s bundles without engine or framework code', async (_subpath, entry) => {
    const inputs = await inputsOf(entry);
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.filter((input) => FORBIDDEN.test(input))).toEqual([]);
  });

  it('the check itself sees a forbidden package when one is imported', async () => {
    const inputs = await inputsOf({ contents: "import { request } from 'undici'; console.log(request);" });
    expect(inputs.some((input) => FORBIDDEN.test(input))).toBe(true);
  });
});
