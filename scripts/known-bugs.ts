// `npm run test:known-bugs`: each bug of test/mutation/known-bugs.ts made again, one at a time, in place;
// the test folders that must catch it run against the changed code, and the bug counts as caught only when at
// least one of their tests fails. Each folder is first run without the bug, where it must pass. The file is put
// back after each bug, also when the run fails or is interrupted (Ctrl-C, SIGTERM). Exit 1 when a bug is
// not caught, 2 for misuse.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { knownBugs, type KnownBug } from '../test/mutation/known-bugs.js';
import { repoRoot } from './lib/repo.js';

if (process.argv.includes('--help')) {
  process.stdout.write(
    `usage: npm run test:known-bugs   makes each bug of test/mutation/known-bugs.ts again (${knownBugs.length}), runs the tests that must catch it, and fails if they pass\n`,
  );
  process.exit(0);
}
if (process.argv.length > 2) {
  process.stderr.write(`test:known-bugs: unexpected argument "${process.argv[2]}"; it takes none (see --help).\n`);
  process.exit(2);
}

let restore: (() => void) | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    restore?.();
    process.exit(130);
  });
}

function vitest(tests: string[]): { code: number; failed: string[] } {
  const report = path.join(repoRoot, 'tmp', `known-bugs-${process.pid}.json`);
  mkdirSync(path.dirname(report), { recursive: true });
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=json', `--outputFile=${report}`, ...tests], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  let failed: string[] = [];
  try {
    const parsed = JSON.parse(readFileSync(report, 'utf8')) as { testResults: { name: string; assertionResults: { status: string; fullName: string }[] }[] };
    failed = parsed.testResults.flatMap((file) =>
      file.assertionResults.filter((a) => a.status === 'failed').map((a) => `${path.relative(repoRoot, file.name)}: ${a.fullName}`),
    );
  } catch {
    // No report: vitest itself failed; its exit code says so.
  } finally {
    rmSync(report, { force: true });
  }
  return { code: run.status ?? 1, failed };
}

function makeBug(bug: KnownBug): void {
  const file = path.join(repoRoot, bug.file);
  const original = readFileSync(file, 'utf8');
  const count = original.split(bug.find).length - 1;
  if (count !== 1) {
    process.stderr.write(`test:known-bugs: "${bug.name}": ${bug.file} has its text ${count} times, not once; rewrite the bug in test/mutation/known-bugs.ts against the new code.\n`);
    process.exit(1);
  }
  restore = () => writeFileSync(file, original);
  writeFileSync(file, original.replace(bug.find, bug.replace));
}

let uncaught = 0;
const baseline = vitest([...new Set(knownBugs.flatMap((b) => b.caughtBy))]);
if (baseline.code !== 0) {
  process.stderr.write(`test:known-bugs: the tests fail without any bug made (${baseline.failed.slice(0, 5).join('; ')}); fix them first.\n`);
  process.exit(1);
}
for (const [index, bug] of knownBugs.entries()) {
  makeBug(bug);
  try {
    const result = vitest(bug.caughtBy);
    if (result.code === 0) {
      uncaught++;
      process.stdout.write(`test:known-bugs: [${index + 1}/${knownBugs.length}] NOT CAUGHT: ${bug.name} (${bug.caughtBy.join(', ')} pass with it)\n`);
    } else {
      process.stdout.write(`test:known-bugs: [${index + 1}/${knownBugs.length}] caught: ${bug.name}\n${result.failed.map((f) => `    fails: ${f}\n`).join('')}`);
    }
  } finally {
    restore?.();
    restore = undefined;
  }
}
process.stdout.write(`test:known-bugs: ${knownBugs.length - uncaught} of ${knownBugs.length} known bugs caught\n`);
process.exit(uncaught > 0 ? 1 : 0);
