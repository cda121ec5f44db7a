// The committed results of `npm run test:mutation`, one file per module in test/mutation/results/.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/repo.js';
import { mutationModules } from './modules.js';
import type { ModuleResult } from './summary.js';

export const resultsDir = path.join(repoRoot, 'test/mutation/results');

export function readResults(): Map<string, ModuleResult> {
  const results = new Map<string, ModuleResult>();
  for (const module of mutationModules) {
    const file = path.join(resultsDir, `${module.name}.json`);
    if (existsSync(file)) results.set(module.name, JSON.parse(readFileSync(file, 'utf8')) as ModuleResult);
  }
  return results;
}
