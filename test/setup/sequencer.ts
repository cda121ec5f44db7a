// The order test files start in: the longest first, so the run does not end on one long file while
// the other workers sit idle.
//
// vitest orders by the durations of the last run on this machine (its cache under node_modules/.vite),
// and, without that cache, by file size, which on a clean clone (CI) started the 30 s webhook-sender
// faults file last, alone for its last 29 s. Here a file's weight is its duration in the cache when the
// cache has it, else its weight in test/weights.json (written from a full run by `npm run
// test:weights`), else DEFAULT_WEIGHT_S: a new file is never left out, only placed by a guess.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const DEFAULT_WEIGHT_S = 1;
export const WEIGHTS_FILE = path.join(import.meta.dirname, '../weights.json');

/** test/weights.json: seconds by path from the repository root; an unreadable file weighs nothing. */
export function readWeights(file = WEIGHTS_FILE): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]) && e[1] >= 0));
  } catch {
    return {};
  }
}

/** Longest first; ties by path, so two runs start files in the same order. */
export function orderByWeight<T>(items: T[], key: (item: T) => string, weight: (item: T) => number): T[] {
  return items
    .map((item) => ({ item, key: key(item), weight: weight(item) }))
    .sort((a, b) => b.weight - a.weight || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((x) => x.item);
}

export default class WeightedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weights = readWeights();
    const root = this.ctx.config.root;
    const rel = (spec: TestSpecification) => path.relative(root, spec.moduleId).split(path.sep).join('/');
    const weight = (spec: TestSpecification) => {
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${rel(spec)}`);
      // A file that failed last time runs first, as vitest does, so a fix is confirmed early.
      if (cached?.failed) return Number.MAX_SAFE_INTEGER;
      if (cached && Number.isFinite(cached.duration)) return cached.duration / 1000;
      return weights[rel(spec)] ?? DEFAULT_WEIGHT_S;
    };
    return orderByWeight(files, rel, weight);
  }
}
