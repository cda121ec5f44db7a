// `npm run test:under-load [-- --workers <n>] [--hogs <n>] [vitest args...]`: the suite as on a busy CI
// machine, the proof that its tests wait on state, never on time (issue 38): `vitest run` with more workers
// than the suite's default (6 unless --workers) while CPU hogs (one per core unless --hogs) spin beside it at
// the same priority. Speed is not judged (that is `npm run bench`); a test that fails only here has a timing
// assumption. The suite's hang guards (its time-outs) are stretched by the load (test/helpers/hang-guard.ts): a test
// that takes four times as long beside the hogs is slow, not hung. The hogs are stopped however the run ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './lib/repo.js';

const usage = 'usage: npm run test:under-load [-- --workers <n>] [--hogs <n>] [<vitest args>...]   the suite with <n> workers (default 6) beside CPU hogs (default one per core)\n';
const args = process.argv.slice(2);
if (args.includes('--help')) {
  process.stdout.write(usage);
  process.exit(0);
}
function count(flag: string, fallback: number): number {
  const at = args.indexOf(flag);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 0 || value > 64) {
    process.stderr.write(`test:under-load: ${flag} "${args[at + 1] ?? ''}" is not a whole number from 0 to 64; use e.g. ${flag} 6.\n`);
    process.exit(2);
  }
  args.splice(at, 2);
  return value;
}
const workers = count('--workers', 6);
const hogCount = count('--hogs', os.availableParallelism());

const hogs: ChildProcess[] = [];
const stopHogs = () => {
  for (const hog of hogs) if (hog.exitCode === null) hog.kill('SIGKILL');
};
process.on('exit', stopHogs);
let suite: ChildProcess | undefined;
/** Signals vitest's whole process group (its workers and what the tests started), never only its main. */
const signalSuite = (signal: NodeJS.Signals) => {
  // The group outlives its leader: orphaned workers are still in it after vitest's main has exited.
  if (suite?.pid === undefined) return;
  try {
    process.kill(-suite.pid, signal);
  } catch {
    // the group is gone already
  }
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // An interrupted run leaves nothing behind: vitest is asked to stop, then its group is killed. Its
    // workers would otherwise outlive it (they are its children, not the terminal's, once it is gone).
    signalSuite(signal);
    setTimeout(() => {
      signalSuite('SIGKILL');
      process.exit(130);
    }, 3000).unref();
    if (suite) void once(suite, 'exit').then(() => {
      signalSuite('SIGKILL');
      process.exit(130);
    });
    else process.exit(130);
  });
}

for (let i = 0; i < hogCount; i++) {
  // A busy loop that also allocates, so it competes for the caches too, not only for a core.
  hogs.push(spawn(process.execPath, ['-e', 'let a=[];for(;;){a.push(Math.sqrt(Math.random()));if(a.length>1e5)a=[]}'], { stdio: 'ignore' }));
}
// The hang guards (test and hook time-outs, expect.poll) stretched by the slowdown: runnable processes per
// core, the suite's own default being three workers on two cores.
const timeoutScale = Math.max(1, Math.ceil((workers + hogCount) / os.availableParallelism()));
process.stdout.write(`test:under-load: ${hogCount} CPU hog(s) running (pids ${hogs.map((h) => h.pid).join(', ')}); vitest with ${workers} workers; hang guards x${timeoutScale}\n`);
suite = spawn(process.execPath, [path.join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', `--maxWorkers=${workers}`, `--minWorkers=${workers}`, ...args], {
  cwd: repoRoot,
  env: { ...process.env, SFC_TEST_TIMEOUT_SCALE: String(timeoutScale) },
  stdio: 'inherit',
  // Its own process group, so an interrupt can end every process of the run at once (above).
  detached: true,
});
const [code, signal] = (await once(suite!, 'exit')) as [number | null, NodeJS.Signals | null];
stopHogs();
process.stdout.write(`test:under-load: vitest ended with ${code ?? signal}; hogs stopped\n`);
process.exit(code ?? 1);
