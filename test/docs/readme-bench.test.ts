// The README's benchmark table is the one of bench/results.json (bench/lib/readme-table.ts): a run's
// results and the table shown can never be of two different runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import type { Metric } from '../../bench/lib/metric.js';
import { formatRatio, metSentence, renderTable, replaceTable, TABLE_HEADER } from '../../bench/lib/readme-table.js';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const { metrics } = JSON.parse(readFileSync(path.join(repoRoot, 'bench/results.json'), 'utf8')) as { metrics: Metric[] };

describe("the README's benchmark table", () => {
  it('is the table of bench/results.json (npx tsx bench/tools/readme-table.ts writes it)', () => {
    expect(replaceTable(readme, metrics)).toBe(readme);
  });

  it('says how many targets the run met', () => {
    expect(readme.replace(/\s+/g, ' ')).toContain(metSentence(metrics));
  });

  it('renders each metric as a row, misses in bold, pipes in descriptions escaped', () => {
    const m = (ratio: number, met: boolean, description = 'a | b'): Metric => ({ id: 'x', description, unit: 'ms', subject: { label: 's', value: 1 }, baseline: { label: 'b', value: 1 }, ratio, target: { op: '<=', ratio: 1.3 }, met });
    expect(renderTable([m(1.1304, true), m(0.8858, false, 'c')])).toEqual([TABLE_HEADER, '|---|---|---|---|', '| a \\| b | 1.13 | <= 1.3 | yes |', '| c | 0.886 | <= 1.3 | **no** |']);
    expect([4.5507, 15.99, 1234.5, 0.91, 0.0001].map(formatRatio)).toEqual(['4.55', '16.0', '1235', '0.910', '0.000']);
    expect(() => replaceTable('no table here', [])).toThrow(/README\.md has no line/);
  });
});
