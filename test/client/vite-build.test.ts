// The typed client in a real Vite production build by the current Vite major (bench/lib/vite-bundle-size.ts,
// the `vite8` dev dependency): a minimal storefront app (anonymous sign-in, one list call) loads at most
// 1.5x the JavaScript of an app making the same two calls on openapi-fetch alone (issue 37 item 5), and its
// build holds no Admin validator. With validation on, the storefront validators are lazy chunks, one per
// operation. Vite adds its preload helper to the app for the client's dynamic import()s; esbuild
// (bundle.test.ts) has no such helper.
import { beforeAll, describe, expect, it } from 'vitest';
import { loaders as storefrontLoaders } from '../../generated/validators/storefront/index.js';
import { OPENAPI_FETCH_APP, repoPath, storefrontApp, viteAppSize, type ViteAppSize, type ViteChunk } from '../../bench/lib/vite-bundle-size.js';
import { hangGuard } from '../helpers/hang-guard.js';

let plain: ViteAppSize;
let storefront: ViteAppSize;
let strict: ViteAppSize;

beforeAll(async () => {
  // One after the other: each build is measured alone.
  plain = await viteAppSize(OPENAPI_FETCH_APP);
  storefront = await viteAppSize(storefrontApp());
  strict = await viteAppSize(storefrontApp("validate: 'strict'"));
}, hangGuard(120_000));

const modulesOf = (chunk: ViteChunk) => chunk.moduleIds.map(repoPath).filter((p): p is string => p !== undefined);
// An operation's validators: generated/validators/<api>/<operationId>.ts (index.ts is the loader map).
const isValidatorModule = (m: string) => m.startsWith('generated/validators/') && !m.endsWith('/index.ts');
const validatorChunks = (app: ViteAppSize) => app.chunks.filter((c) => modulesOf(c).some(isValidatorModule));
const describeChunks = (app: ViteAppSize) => app.chunks.map((c) => `${c.initial ? 'initial' : 'lazy'} ${c.fileName} ${c.gzip} B`).join(', ');

describe('a minimal storefront app built by Vite', () => {
  it('item 5: built by Vite 8 or later, loads at most 1.5x the JavaScript of the same calls on openapi-fetch alone', () => {
    expect(Number(storefront.vite.split('.')[0])).toBeGreaterThanOrEqual(8);
    const ratio = storefront.initialGzip / plain.initialGzip;
    console.log(
      `Vite ${storefront.vite} build, initial JS gzip: createStorefrontClient app ${storefront.initialGzip} B vs openapi-fetch alone ${plain.initialGzip} B, ratio ${ratio.toFixed(3)}\n` +
        `  storefront app chunks: ${describeChunks(storefront)}\n  openapi-fetch app chunks: ${describeChunks(plain)}`,
    );
    expect(ratio).toBeLessThanOrEqual(1.5);
  });

  it('loads no validator and no validation code with the app', () => {
    for (const app of [storefront, strict]) {
      const initial = app.chunks.filter((c) => c.initial).flatMap(modulesOf);
      expect(initial).toContain('src/client/storefront.ts');
      expect(initial.filter((m) => m.startsWith('generated/validators/') || m.startsWith('src/validators/') || m === 'src/client/validation.ts')).toEqual([]);
    }
  });

  it('loads the error classes only with a failure: a lazy chunk of their own', () => {
    const where = (app: ViteAppSize) => app.chunks.filter((c) => modulesOf(c).includes('src/client/errors.ts')).map((c) => c.initial);
    expect(where(storefront)).toEqual([false]);
    expect(where(strict)).toEqual([false]);
  });

  it('emits no chunk of the Admin API', () => {
    for (const app of [storefront, strict]) {
      const admin = app.chunks.filter((c) => modulesOf(c).some((m) => m.startsWith('generated/validators/admin/') || m === 'src/client/admin-validation.ts'));
      expect(admin.map((c) => c.fileName)).toEqual([]);
    }
  });

  it('with validation on, has one lazy chunk per storefront operation, each loaded by dynamic import', () => {
    const chunks = validatorChunks(strict);
    const operations = chunks.map((chunk) => {
      const validators = modulesOf(chunk).filter(isValidatorModule);
      // Its own chunk: exactly one operation's module, reached only by import().
      expect(validators, chunk.fileName).toHaveLength(1);
      expect(chunk.initial, chunk.fileName).toBe(false);
      expect(chunk.isDynamicEntry, chunk.fileName).toBe(true);
      return validators[0].match(/^generated\/validators\/storefront\/(\w+)\.ts$/)?.[1];
    });
    console.log(`Vite build with validate: 'strict': ${chunks.length} lazy validator chunks, ${chunks.map((c) => `${c.fileName} ${c.gzip} B`).join(', ')}`);
    expect(operations.sort()).toEqual(Object.keys(storefrontLoaders).sort());
  });
});
