// The file order of test/setup/sequencer.ts: longest first, weights from test/weights.json, a new file
// placed by the default weight, never dropped; a damaged weights file weighs nothing.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHT_S, orderByWeight, readWeights } from './sequencer.js';

const testRoot = path.join(import.meta.dirname, '..');

describe('the test sequencer', () => {
  it('starts the longest file first; a file without a weight takes the default, ties by path', () => {
    const weights: Record<string, number> = { 'test/b.test.ts': 30, 'test/c.test.ts': 0.2 };
    const files = ['test/a.test.ts', 'test/c.test.ts', 'test/new.test.ts', 'test/b.test.ts'];
    const ordered = orderByWeight(files, (f) => f, (f) => weights[f] ?? DEFAULT_WEIGHT_S);
    expect(ordered).toEqual(['test/b.test.ts', 'test/a.test.ts', 'test/new.test.ts', 'test/c.test.ts']);
  });

  it('reads nothing from a damaged or hostile weights file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'weights-'));
    try {
      const file = path.join(dir, 'weights.json');
      for (const text of ['{', '[1,2]', 'null', '"x"']) {
        writeFileSync(file, text);
        expect(readWeights(file), text).toEqual({});
      }
      writeFileSync(file, JSON.stringify({ 'test/a.test.ts': 3, 'test/b.test.ts': 'slow', 'test/c.test.ts': -1, 'test/d.test.ts': 1e400 }));
      expect(readWeights(file)).toEqual({ 'test/a.test.ts': 3 });
      expect(readWeights(path.join(dir, 'missing.json'))).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('weighs only files that exist: test/weights.json names no deleted or moved test', () => {
    const existing = new Set(
      readdirSync(testRoot, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => `test/${f.split(path.sep).join('/')}`),
    );
    const weights = readWeights();
    expect(Object.keys(weights).length).toBeGreaterThan(10);
    expect(Object.keys(weights).filter((f) => !existing.has(f))).toEqual([]);
  });
});
