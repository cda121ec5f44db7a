// The vitest example of docs/guides/testing-with-the-sandbox.md runs as written: its blocks marked
// `file=<name>` (the app's client module, the vitest config and setup file, the component, the component
// test) are written to a folder of their own and run by vitest in a child process (jsdom, React, TanStack
// Query through storefront-contract/react-query, msw/node, the sandbox's Node handlers), and type-checked
// by tsc. A block that stops working fails here, not in a reader's project. The app's client is made when
// its module loads, before the setup's server.listen() (issue 37 item 3), and keeps working across the
// setup's sandbox.reset() after each test (item 2).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';
import { hangGuard } from '../helpers/hang-guard.js';

const GUIDE = path.join(repoRoot, 'docs/guides/testing-with-the-sandbox.md');
const FILE_BLOCK = /^```(?:ts|tsx) file=(\S+)\n([\s\S]*?)^```[ \t]*$/gm;
const dir = path.join(repoRoot, 'tmp', `msw-guide-${process.pid}`);
let files: Map<string, string>;

beforeAll(async () => {
  files = new Map([...(await readFile(GUIDE, 'utf8')).matchAll(FILE_BLOCK)].map((m) => [m[1], m[2]]));
  await mkdir(dir, { recursive: true });
  for (const [name, code] of files) await writeFile(path.join(dir, name), code);
  // The guide's config on top of the repository's own (its aliases resolve the packages to their sources), narrowed to this folder.
  await writeFile(
    path.join(dir, 'vitest.repo.config.mts'),
    `import { defineConfig, mergeConfig } from 'vitest/config';
import base from ${JSON.stringify(path.join(repoRoot, 'vitest.config.ts'))};
import guide from './vitest.config.ts';
export default mergeConfig(mergeConfig(base, guide), defineConfig({ esbuild: { jsx: 'automatic' }, test: { root: ${JSON.stringify(dir)}, include: ['*.test.tsx'] } }));
`,
  );
  await writeFile(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: path.join(repoRoot, 'tsconfig.json'), compilerOptions: { noEmit: true, jsx: 'react-jsx', allowImportingTsExtensions: true, module: 'preserve', moduleResolution: 'bundler' }, include: ['*.ts', '*.tsx'], exclude: ['vitest.repo.config.mts'] }),
  );
});

afterAll(() => rm(dir, { recursive: true, force: true }));

// The two children run side by side: each mostly waits on its own process. Their bounds are for a loaded
// machine (about 2 minutes each with a dozen other processes on 2 cores), not a speed check.
describe.concurrent('the vitest example of the guide', () => {
  it('has its six files', () => {
    expect([...files.keys()].sort()).toEqual(['ProductList.test.tsx', 'ProductList.tsx', 'api.ts', 'vite-env.d.ts', 'vitest.config.ts', 'vitest.setup.ts']);
  });

  it("item 3: passes under vitest, as the guide shows: the app's client, made before server.listen(), renders the sandbox's data through the query hooks", async () => {
    const r = await run(process.execPath, [path.join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--config', path.join(dir, 'vitest.repo.config.mts')], { cwd: repoRoot, timeoutMs: hangGuard(240_000), env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/Tests\s+3 passed \(3\)/);
  }, hangGuard(240_000));

  it('type-checks', async () => {
    const r = await run(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', path.join(dir, 'tsconfig.json'), '--pretty', 'false'], { cwd: repoRoot, timeoutMs: hangGuard(240_000) });
    expect(r.output.trim()).toBe('');
    expect(r.code).toBe(0);
  }, hangGuard(240_000));
});
