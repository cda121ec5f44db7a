// Every file under mutation testing (test/mutation/modules.ts) loads on its own. In `npm test` this is the
// plain check it reads as. Under `npm run test:mutation` it is what makes a mutant that throws while its
// module loads (a module-level `new TextDecoder('')`, a regex made invalid) count as killed: the runner
// sees a test file that cannot import its subject as no failed test, so only a test that imports the file
// inside its body turns that throw into a failure. scripts/mutation.ts adds this file to every module's
// tests and names the module's files in MUT_FILES; without it, every module's files are loaded.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { mutationModules } from './modules.js';

/** A module's `mutate` entries as files: `dir/*.ts` is every `.ts` file of dir (not below it). */
function expand(pattern: string): string[] {
  if (!pattern.includes('*')) return [pattern];
  const dir = path.posix.dirname(pattern);
  const suffix = path.posix.basename(pattern).replace(/^\*/, '');
  return readdirSync(path.join(repoRoot, dir))
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => path.posix.join(dir, name));
}

const patterns = process.env.MUT_FILES ? process.env.MUT_FILES.split(',') : mutationModules.flatMap((m) => m.mutate);
const files = [...new Set(patterns.flatMap(expand))];

describe('every file under mutation testing loads', () => {
  it('finds the files of the modules', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  // Loading is the assertion: an import that throws fails the test (a file of types only exports nothing).
  it.each(files)('%s', async (file) => {
    await expect(import(pathToFileURL(path.join(repoRoot, file)).href)).resolves.toBeTypeOf('object');
  });
});
