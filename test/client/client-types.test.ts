// Runs tsc over the type tests of tsconfig.types.json (client-types, react-query-types, strict-consumer,
// optional-parameters, and workbench-events: the sandbox raises only events of the catalog), under a strict
// app's flags: right calls compile, wrong ones are errors. Libraries' declaration files are not re-checked here (skipLibCheck): the published .d.ts of both packages are, with
// skipLibCheck false, by test/package/installed.test.ts; here it only re-checked @types/node, React and
// TanStack (4 CPU-s a run).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run, type RunResult } from '../helpers/run.js';
import { hangGuard } from '../helpers/hang-guard.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const config = path.join(here, 'tsconfig.types.json');

let tsc: RunResult;
beforeAll(async () => {
  tsc = await run(path.join(repoRoot, 'node_modules/.bin/tsc'), ['-p', config, '--noEmit'], { cwd: repoRoot });
}, hangGuard(120_000)); // a safety net for a loaded machine: the program holds every entry's sources and their libraries' types

describe('client types', () => {
  it('accept correct calls, reject wrong ones, type failures and event names, and compile under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess', () => {
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  });

  // optional-parameters.check.ts: an undefined optional filter and header compile; a required query
  // parameter and a path parameter refuse undefined (expect-error directives, which fail when unused).
  it('item 6: optional query and header parameters take undefined under exactOptionalPropertyTypes; required ones refuse it', async () => {
    const { compilerOptions, include } = JSON.parse(await readFile(config, 'utf8')) as { compilerOptions: Record<string, unknown>; include: string[] };
    expect(compilerOptions.exactOptionalPropertyTypes).toBe(true);
    expect(include).toContain('optional-parameters.check.ts');
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  });
});
