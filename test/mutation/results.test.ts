// The mutation results the README shows are the committed ones, and the module list names real files.
// (The mutation run itself is `npm run test:mutation`; .ci/run runs it incrementally. This file only checks
// what is committed, in milliseconds.)
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { mutationModules } from './modules.js';
import { readResults } from './results-files.js';
import { renderMutationSection, replaceMutationSection, START_MARKER } from './table.js';

describe('issue 38: mutation testing results', () => {
  const results = readResults();

  it('names only files that exist, and each module once', () => {
    expect(new Set(mutationModules.map((m) => m.name)).size).toBe(mutationModules.length);
    for (const module of mutationModules) {
      for (const entry of [...module.mutate.filter((f) => !f.includes('*')), ...module.tests]) {
        expect(existsSync(path.join(repoRoot, entry)), `${module.name}: ${entry}`).toBe(true);
      }
    }
  });

  // Whether each score meets the threshold is the mutation run's verdict (`npm run test:mutation` exits 1 under
  // it, in .ci/run), and the README's table shows it; here, that what is committed is whole and consistent.
  // A module with no committed result yet is in the README's table as "not run" (the table test below).
  it('every committed result says whether the type checker ran, and its score is its counts\' own', () => {
    expect(results.size).toBeGreaterThan(0);
    for (const module of mutationModules.filter((m) => results.has(m.name))) {
      const result = results.get(module.name);
      expect(typeof result!.checker, module.name).toBe('boolean');
      expect(result!.score).toBeGreaterThanOrEqual(0);
      expect(result!.score).toBeLessThanOrEqual(100);
      const c = result!.counts;
      // The score is the counts' own: killed + timed out over every valid mutant that is not marked equivalent.
      expect(result!.score).toBe(Math.floor(((c.killed + c.timeout) / (c.killed + c.timeout + c.survived + c.noCoverage)) * 1000) / 10);
      expect(result!.survivors).toHaveLength(c.survived + c.noCoverage);
      expect(result!.equivalent).toHaveLength(c.ignored);
      for (const e of result!.equivalent) expect(e.reason.length, `${e.file}:${e.line} has no reason`).toBeGreaterThan(10);
    }
  });

  it("the README's mutation table is the one the committed results render", () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain(START_MARKER);
    expect(replaceMutationSection(readme, mutationModules, results), 'run npx tsx test/mutation/readme-table.ts').toBe(readme);
    expect(renderMutationSection(mutationModules, results).length).toBeGreaterThan(mutationModules.length);
  });
});
