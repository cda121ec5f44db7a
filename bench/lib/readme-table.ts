// The README's benchmark table, rendered from bench/results.json: one row per metric in the order the
// run wrote them. `npm run bench` writes the results, `npx tsx bench/tools/readme-table.ts` puts the table
// in README.md, and test/docs/readme-bench.test.ts fails while the two differ, so the README never shows
// a table of another run.
import type { Metric } from './metric.js';

export const TABLE_HEADER = '| metric | ratio | target | met |';

/** A ratio as the README prints it: three significant digits from 1 up (whole numbers from 100), three decimals below. */
export function formatRatio(ratio: number): string {
  const size = Math.abs(ratio);
  return size >= 100 ? ratio.toFixed(0) : size >= 1 ? ratio.toPrecision(3) : ratio.toFixed(3);
}

export function renderTable(metrics: readonly Metric[]): string[] {
  return [
    TABLE_HEADER,
    '|---|---|---|---|',
    ...metrics.map((m) => `| ${m.description.replaceAll('|', '\\|')} | ${formatRatio(m.ratio)} | ${m.target.op} ${m.target.ratio} | ${m.met ? 'yes' : '**no**'} |`),
  ];
}

/** `36 of 43 targets met`, as the README's sentence above the table says it. */
export function metSentence(metrics: readonly Metric[]): string {
  return `${metrics.filter((m) => m.met).length} of ${metrics.length} targets met`;
}

/** README text with its table (from TABLE_HEADER to the first blank line after it) replaced. */
export function replaceTable(readme: string, metrics: readonly Metric[]): string {
  const lines = readme.split('\n');
  const start = lines.indexOf(TABLE_HEADER);
  if (start < 0) throw new Error(`README.md has no line "${TABLE_HEADER}" to put the benchmark table at`);
  let end = start;
  while (end < lines.length && lines[end].trim() !== '') end++;
  return [...lines.slice(0, start), ...renderTable(metrics), ...lines.slice(end)].join('\n');
}
