// Runs tsc over client-types.check.ts: right calls compile, wrong ones are errors.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('client types', () => {
  it('accept correct calls and reject wrong parameters, missing parameters and wrong bodies', async () => {
    const result = await run(path.join(repoRoot, 'node_modules/.bin/tsc'), ['-p', path.join(here, 'tsconfig.types.json'), '--noEmit'], { cwd: repoRoot });
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });
});
