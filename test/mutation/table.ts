// The README's mutation table, rendered from test/mutation/results/*.json (written by `npm run test:mutation`):
// one row per module of test/mutation/modules.ts, then every surviving mutant and every mutant marked
// equivalent with its reason. `npx tsx test/mutation/readme-table.ts` writes it between the two markers, and
// test/mutation/results.test.ts fails while the README's text differs from what the results render.
import { MUTATION_THRESHOLD, type MutationModule } from './modules.js';
import { meetsThreshold, type ModuleResult } from './summary.js';

export const START_MARKER = '<!-- mutation-table:start (npx tsx test/mutation/readme-table.ts) -->';
export const END_MARKER = '<!-- mutation-table:end -->';

const escape = (text: string) => text.replaceAll('|', '\\|').replaceAll('`', "'");

export function renderMutationSection(modules: readonly MutationModule[], results: ReadonlyMap<string, ModuleResult>): string[] {
  const lines = [
    START_MARKER,
    `| module | mutated files | mutants | killed | survived | equivalent | score | ≥ ${MUTATION_THRESHOLD}% |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const module of modules) {
    const result = results.get(module.name);
    if (!result) {
      lines.push(`| ${escape(module.title)} | ${module.mutate.map((f) => `\`${f}\``).join(', ')} | not run | | | | | **no** |`);
      continue;
    }
    const c = result.counts;
    lines.push(
      `| ${escape(module.title)} | ${module.mutate.map((f) => `\`${f}\``).join(', ')} | ${c.killed + c.timeout + c.survived + c.noCoverage} | ${c.killed + c.timeout} | ${c.survived + c.noCoverage} | ${c.ignored} | ${result.score.toFixed(1)}%${result.checker ? '' : ' (without the type checker)'} | ${meetsThreshold(result) ? 'yes' : '**no**'} |`,
    );
  }
  const survivors = modules.flatMap((m) => results.get(m.name)?.survivors ?? []);
  const equivalent = modules.flatMap((m) => results.get(m.name)?.equivalent ?? []);
  lines.push('');
  lines.push(survivors.length === 0 ? 'Surviving mutants: none.' : `Surviving mutants (${survivors.length}), each a test still to write:`);
  for (const s of survivors) lines.push(`- \`${s.file}:${s.line}\` ${s.mutator}: \`${escape(s.replacement)}\``);
  lines.push('');
  lines.push(equivalent.length === 0 ? 'Mutants marked equivalent: none.' : `Mutants marked equivalent in the code (${equivalent.length}), with the reason given there:`);
  for (const e of equivalent) lines.push(`- \`${e.file}:${e.line}\` ${e.mutator}: ${escape(e.reason)}`);
  lines.push(END_MARKER);
  return lines;
}

/** README text with the section between the markers replaced. */
export function replaceMutationSection(readme: string, modules: readonly MutationModule[], results: ReadonlyMap<string, ModuleResult>): string {
  const lines = readme.split('\n');
  const start = lines.indexOf(START_MARKER);
  const end = lines.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`README.md has no "${START_MARKER}" ... "${END_MARKER}" section to put the mutation table in`);
  return [...lines.slice(0, start), ...renderMutationSection(modules, results), ...lines.slice(end + 1)].join('\n');
}
