// Runs tsc over the type tests of tsconfig.types.json (client-types, react-query-types, strict-consumer),
// under a strict app's flags: right calls compile, wrong ones are errors. Libraries' declaration files are
// not re-checked here (skipLibCheck): the published .d.ts of both packages are, with skipLibCheck false, by
// test/package/installed.test.ts; here it only re-checked @types/node, React and TanStack (4 CPU-s a run).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('client types', () => {
  it('accept correct calls, reject wrong ones, type failures and event names, and compile under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess', async () => {
    const result = await run(path.join(repoRoot, 'node_modules/.bin/tsc'), ['-p', path.join(here, 'tsconfig.types.json'), '--noEmit'], { cwd: repoRoot });
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 120_000); // a safety net for a loaded machine: the program holds every entry's sources and their libraries' types
});
