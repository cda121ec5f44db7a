// The shipped documents themselves pass `npm run lint` (Redocly with the contract rules, and the AsyncAPI
// validator): the same gate a pull request meets, run as one of the suite's tests.
import path from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';
import { hangGuard } from '../helpers/hang-guard.js';

it('npm run lint passes on spec/ (0 errors, 0 warnings)', async () => {
  const { GITHUB_ACTIONS: _omit, ...env } = process.env;
  const result = await run(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'scripts/lint.ts'], { cwd: repoRoot, env });
  expect(result.code, result.output).toBe(0);
  expect(result.stdout).toMatch(/lint: all documents clean \(0 errors, 0 warnings\)/);
}, hangGuard(120_000));
