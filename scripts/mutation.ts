// `npm run test:mutation [-- --module <name>]... [--incremental] [--concurrency <n>]`: StrykerJS over the code
// where a bug costs most (test/mutation/modules.ts), one module at a time, each judged by its own test files
// through the vitest runner, with the TypeScript checker dropping mutants that do not compile.
//
// Each module's run writes test/mutation/results/<module>.json (the summary the README's table and
// test/mutation/results.test.ts read) and test/mutation/incremental/<module>.json (Stryker's incremental
// file). `--incremental` reuses that file: only mutants in changed code, or covered by changed tests, run
// again; that is how CI runs it (.ci/run). Without it every mutant runs. The exit code is 1 when a module's
// score is under the threshold and (a ratchet for a module still on its way there) under its committed score;
// 2 for misuse.
//
// Stryker mutates the files in place (its sandbox copy cannot follow the packages' `src` symlinks) and puts
// them back when it ends, also on Ctrl-C; do not edit the mutated files while it runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MUTATION_THRESHOLD, mutationModules, type MutationModule } from '../test/mutation/modules.js';
import { meetsThreshold, summarise, type ModuleResult, type StrykerReport } from '../test/mutation/summary.js';
import { repoRoot } from './lib/repo.js';

const usage = `usage: npm run test:mutation [-- --module <name>]... [--incremental] [--concurrency <n>]
  StrykerJS over the modules of test/mutation/modules.ts (${mutationModules.map((m) => m.name).join(', ')}),
  each judged by its own tests; writes test/mutation/results/ and test/mutation/incremental/.
  --module <name>    only this module (repeatable); default: all
  --incremental      re-test only mutants in changed code or under changed tests (as CI does); a module
                     with no committed baseline is skipped, with a line saying so
  --concurrency <n>  test runner processes (default: cores - 1, at least 1)
  --no-checker       skip the TypeScript checker (faster while iterating; a mutant that does not compile then
                     runs anyway and is usually killed or survives; committed results use the checker)
`;

function fail(message: string): never {
  process.stderr.write(`test:mutation: ${message}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(usage);
  process.exit(0);
}
const selected: MutationModule[] = [];
let incremental = false;
let checker = true;
let concurrency: number | undefined;
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === '--incremental') incremental = true;
  else if (arg === '--no-checker') checker = false;
  else if (arg === '--module') {
    const name = args[++i];
    const module = mutationModules.find((m) => m.name === name);
    if (!module) fail(`--module "${name ?? ''}" is not a module; use one of ${mutationModules.map((m) => m.name).join(', ')}.`);
    selected.push(module);
  } else if (arg === '--concurrency') {
    const value = Number(args[++i]);
    if (!Number.isInteger(value) || value < 1 || value > 16) fail(`--concurrency "${args[i] ?? ''}" is not a whole number from 1 to 16; use e.g. --concurrency 1.`);
    concurrency = value;
  } else fail(`unknown argument "${arg}"; see --help.`);
}
const modules = selected.length > 0 ? selected : mutationModules;

/** The test files of a module: listed files, and every `*.test.ts` under a listed folder. */
function testFiles(module: MutationModule): string[] {
  return module.tests.flatMap((entry) => {
    const absolute = path.join(repoRoot, entry);
    if (!existsSync(absolute)) fail(`test/mutation/modules.ts: module ${module.name} names ${entry}, which does not exist; fix the entry.`);
    if (!statSync(absolute).isDirectory()) return [entry];
    return readdirSync(absolute, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.test.ts'))
      .sort()
      .map((name) => path.posix.join(entry, name.split(path.sep).join('/')));
  });
}

const MODULES_LOAD_TEST = 'test/mutation/modules-load.test.ts';
const resultsDir = path.join(repoRoot, 'test/mutation/results');
const incrementalDir = path.join(repoRoot, 'test/mutation/incremental');
const workDir = path.join(repoRoot, 'tmp/mutation');
mkdirSync(resultsDir, { recursive: true });
mkdirSync(incrementalDir, { recursive: true });
mkdirSync(workDir, { recursive: true });

const strykerBin = path.join(repoRoot, 'node_modules/@stryker-mutator/core/bin/stryker.js');
let below = 0;
for (const [index, module] of modules.entries()) {
  // The module's own tests, and the check that each of its files loads (a mutant that throws at load is killed there).
  const tests = [...testFiles(module), MODULES_LOAD_TEST];
  if (incremental && !existsSync(path.join(incrementalDir, `${module.name}.json`))) {
    // No committed baseline to compare with: an incremental run would test every mutant (a full run, which
    // is a developer's step, not CI's). Said, not hidden; the README's table shows the module as not run.
    process.stdout.write(`test:mutation: [${index + 1}/${modules.length}] ${module.name}: skipped, no committed baseline (test/mutation/incremental/${module.name}.json); run npm run test:mutation -- --module ${module.name}\n`);
    continue;
  }
  const reportFile = path.join(workDir, `${module.name}.report.json`);
  const tsconfigFile = path.join(workDir, `${module.name}.tsconfig.json`);
  writeFileSync(
    tsconfigFile,
    `${JSON.stringify({ extends: path.relative(workDir, path.join(repoRoot, 'test/mutation/tsconfig.json')), include: module.mutate.map((file) => path.relative(workDir, path.join(repoRoot, file))) }, null, 2)}\n`,
  );
  rmSync(reportFile, { force: true });
  const config = {
    $schema: '../../node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    testRunner: 'vitest',
    vitest: { configFile: 'test/mutation/vitest.config.ts', related: false },
    checkers: checker ? ['typescript'] : [],
    // A project of the mutated files and what they import, not the whole repository: the checker re-checks
    // the program for each group of mutants, and a smaller program is several times faster.
    tsconfigFile: path.relative(repoRoot, tsconfigFile),
    // Stryker would otherwise add `// @ts-nocheck` to every source file (in place, then put back); vitest
    // does not type-check, and the checker above needs the types.
    disableTypeChecks: false,
    plugins: ['@stryker-mutator/vitest-runner', '@stryker-mutator/typescript-checker'],
    mutate: module.mutate,
    coverageAnalysis: 'perTest',
    inPlace: true,
    tempDirName: path.relative(repoRoot, path.join(workDir, `${module.name}.stryker-tmp`)),
    incremental: true,
    incrementalFile: path.relative(repoRoot, path.join(incrementalDir, `${module.name}.json`)),
    force: !incremental,
    reporters: ['json', 'progress-append-only'],
    jsonReporter: { fileName: path.relative(repoRoot, reportFile) },
    ...(concurrency ? { concurrency } : {}),
    cleanTempDir: 'always',
    timeoutMS: 10_000,
    thresholds: { high: 95, low: MUTATION_THRESHOLD, break: null },
  };
  const configFile = path.join(workDir, `${module.name}.stryker.json`);
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  process.stdout.write(
    `test:mutation: [${index + 1}/${modules.length}] ${module.name}: ${module.mutate.join(' ')} against ${tests.length} test file(s)${incremental ? ', incremental' : ''}${checker ? '' : ', no checker'}\n`,
  );
  const run = spawnSync(process.execPath, [strykerBin, 'run', path.relative(repoRoot, configFile)], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, MUT_TESTS: tests.join(','), MUT_FILES: module.mutate.join(','), FORCE_COLOR: '0' },
  });
  if (run.status !== 0 || !existsSync(reportFile)) {
    process.stderr.write(`test:mutation: ${module.name}: Stryker ended with ${run.status ?? run.signal} and no report; see its output above.\n`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as StrykerReport;
  const resultFile = path.join(resultsDir, `${module.name}.json`);
  const committed = existsSync(resultFile) ? (JSON.parse(readFileSync(resultFile, 'utf8')) as ModuleResult).score : undefined;
  const result = summarise(module, report, incremental ? 'incremental' : 'full', checker, repoRoot);
  writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
  const c = result.counts;
  const ok = meetsThreshold(result);
  const regressed = !ok && (committed === undefined || result.score < committed);
  if (regressed) below++;
  process.stdout.write(
    `test:mutation: ${module.name}: ${result.score}% (${c.killed + c.timeout} killed of ${c.killed + c.timeout + c.survived + c.noCoverage}; ${c.survived} survived, ${c.noCoverage} not covered, ${c.ignored} equivalent, ${c.compileError} not compiling)${ok ? '' : ` under ${MUTATION_THRESHOLD}%${regressed ? `, and under its committed ${committed ?? 'nothing'}%: FAILS` : `, not under its committed ${committed}%`}`}\n`,
  );
  for (const s of result.survivors) process.stdout.write(`  survived: ${s.file}:${s.line} ${s.mutator} -> ${s.replacement}\n`);
}
process.stdout.write(`test:mutation: results in test/mutation/results/; README table: npx tsx test/mutation/readme-table.ts\n`);
process.exit(below > 0 ? 1 : 0);
