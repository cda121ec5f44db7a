// What a typed client loads: nothing of the validators without validation; with validation, the
// module of each operation it calls (on first use) and no other. Observed in a fresh process with a
// module hook logging every loaded file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-lazy-'));
});
afterAll(async () => dir && rm(dir, { recursive: true, force: true }));

/** Runs a client in a fresh process; returns the printed statuses and the repository files it loaded. */
async function callClient(mode: string, operations: string[]): Promise<{ statuses: number[]; loaded: string[] }> {
  const log = path.join(dir, `${mode}-${operations.join('-')}.log`);
  const result = await run(process.execPath, ['--import', 'tsx', '--import', path.join(here, 'lazy/record-loads.mjs'), path.join(here, 'lazy/call-client.ts'), mode, ...operations], {
    cwd: repoRoot,
    env: { ...process.env, SFC_LOAD_LOG: log },
  });
  expect(result.code, result.output).toBe(0);
  const urls = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  const loaded = [...new Set(urls.map((url) => path.relative(repoRoot, fileURLToPath(url.split('?')[0]))))].filter((f) => !f.startsWith('..') && !f.includes('node_modules'));
  return { statuses: JSON.parse(result.stdout), loaded };
}

// The validation code of the clients (loaded by the dynamic import of storefront-validation.ts or
// admin-validation.ts), the route -> operationId table it reads, and the validators.
const CLIENT_VALIDATION = ['src/client/storefront-validation.ts', 'src/client/admin-validation.ts', 'src/client/validation.ts', 'src/client/response-check.ts'];
const validatorFiles = (loaded: string[]) =>
  loaded.filter((f) => f.startsWith('generated/validators/') || f.startsWith('src/validators/') || CLIENT_VALIDATION.includes(f) || f === 'generated/operations/routes.ts').sort();

describe('validators a typed client loads', () => {
  it('none when validation is off', async () => {
    const { statuses, loaded } = await callClient('off', ['listCountries']);
    expect(statuses).toEqual([200]);
    expect(loaded).toContain('src/client/storefront.ts');
    expect(validatorFiles(loaded)).toEqual([]);
  });

  it('with validation on, only the module of the operation called', async () => {
    const { statuses, loaded } = await callClient('strict', ['listCountries', 'listCountries']);
    expect(statuses).toEqual([200, 200]);
    // The storefront loader map (operationId -> import) is small; the validators are in the operation's
    // module. Nothing of the Admin API: the storefront client never references its loader map.
    expect(validatorFiles(loaded)).toEqual([
      'generated/operations/routes.ts',
      'generated/validators/storefront/index.ts',
      'generated/validators/storefront/listCountries.ts',
      'src/client/response-check.ts',
      'src/client/storefront-validation.ts',
      'src/client/validation.ts',
      'src/validators/format-errors.ts',
      'src/validators/lookup.ts',
      'src/validators/messages.ts',
      'src/validators/operation-loader.ts',
    ]);
  });

  it('each further operation adds its own module', async () => {
    const { statuses, loaded } = await callClient('strict', ['listCountries', 'createAnonymousUser']);
    expect(statuses).toEqual([200, 401]);
    expect(validatorFiles(loaded).filter((f) => f.startsWith('generated/validators/') && !f.endsWith('/index.ts'))).toEqual([
      'generated/validators/storefront/createAnonymousUser.ts',
      'generated/validators/storefront/listCountries.ts',
    ]);
  });
});
