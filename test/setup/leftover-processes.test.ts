// The check after the suite (leftover-processes.ts, vitest's globalSetup): a run that leaves a process
// fails naming it, a clean run passes (vitest's own workers and esbuild are not taken for leftovers), and
// the rules that pick the leftovers from the process table.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { killPids, makeTempDir } from '../helpers/cleanup.js';
import { run } from '../helpers/run.js';
import { describeProcess, findLeftovers, type ProcessInfo } from './leftover-processes.js';
import { hangGuard } from '../helpers/hang-guard.js';

const { dir, remove: removeDir } = await makeTempDir('sfc-leftover-');
const pidsToStop: number[] = [];
afterAll(async () => {
  killPids(pidsToStop);
  await removeDir();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
  } catch {
    return false;
  }
};

function childVitest(env: Record<string, string>) {
  return run(process.execPath, [path.join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/setup/fixtures/leftover/vitest.config.ts'], {
    cwd: repoRoot,
    timeoutMs: hangGuard(120_000),
    // A short grace: the fixture's processes are left on purpose and never die by themselves.
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', SFC_LEFTOVER_GRACE_MS: '1000', ...env },
  });
}

describe.runIf(process.platform === 'linux').concurrent('issue 38: the check after the suite that no process is left', () => {
  it('issue 38: a run whose test leaves processes fails, naming each with its pid and command line, and kills them', async () => {
    const pidFile = path.join(dir, 'pids');
    const r = await childVitest({ LEAVE_PROCESS: pidFile });
    const pids = readFileSync(pidFile, 'utf8').split(' ').map(Number);
    pidsToStop.push(...pids);
    expect(pids).toHaveLength(2);
    expect(r.output).toMatch(/1 passed/); // the test itself passed: only the check fails the run
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toContain('LEFTOVER PROCESSES: 2 processes');
    for (const [pid, command] of [[pids[0], 'sleep 600'], [pids[1], 'sleep 601']] as const) expect(r.output).toMatch(new RegExp(`pid ${pid} \\(parent \\d+[^)]*\\): ${command}\\n`));
    // vi.waitFor waits the same way; expect.poll here failed with "expect.poll() must be called inside a test" (vitest 3.2, isolate: false).
    await vi.waitFor(() => expect(pids.filter(alive)).toEqual([]), { timeout: hangGuard(15_000), interval: 100 });
  }, hangGuard(180_000));

  it("issue 38: a clean run passes: vitest's own workers and esbuild's service are not leftovers", async () => {
    const r = await childVitest({});
    expect(r.output).not.toContain('LEFTOVER');
    expect(r.output).toMatch(/1 passed/);
    expect(r.code, r.output).toBe(0);
  }, hangGuard(180_000));
});

describe('issue 38: which processes count as left over', () => {
  const MAIN = 100;
  const p = (pid: number, ppid: number, argv: string[], extra: Partial<ProcessInfo> = {}): ProcessInfo => ({ pid, ppid, state: 'S', start: 50, argv, ...extra });
  const options = { mainPid: MAIN, runId: 'run-1', since: 10, before: new Set([1, 7]), tempFolders: ['/repo/tmp', '/repo/test-artifacts'] };
  const table = [
    p(1, 0, ['/sbin/init']),
    p(7, 1, ['bash'], { cwd: '/repo/tmp' }), // alive before the run
    p(MAIN, 7, ['node', '/repo/node_modules/vitest/vitest.mjs', 'run']),
    p(101, MAIN, ['node (vitest 1)']), // a forks worker, as it titles itself
    p(113, MAIN, ['node', '/repo/node_modules/vitest/dist/workers/forks.js']),
    p(115, MAIN, ['/usr/bin/node', '--conditions', 'node', '/repo/node_modules/tinypool/dist/entry/process.js']), // a worker starting
    p(102, MAIN, ['/repo/node_modules/@esbuild/linux-x64/bin/esbuild', '--service=0.25.0', '--ping']),
    p(103, 101, ['node', 'cli/storefront-contract.ts', 'mock', '--admin-token', 'tok_secret', '--secret=whsec_abc']), // a test's child, under a worker
    p(104, 103, ['sleep', '5']), // its grandchild
    p(105, 103, ['sleep', '1'], { state: 'Z' }), // a zombie: already dead
    p(106, 1, ['sleep', '600'], { runId: 'run-1' }), // detached, re-parented: its environment names the run
    p(107, 1, ['sleep', '600'], { runId: 'another-run' }),
    p(108, 1, ['bash', 'block.sh'], { cwd: '/repo/test-artifacts/guides-1' }),
    p(109, 1, ['node', '/repo/tmp/server.js'], { cwd: '/' }),
    p(110, 1, ['node', '/repo/tmp/server.js'], { start: 5 }), // started before the vitest process: not the run's
    p(111, 1, ['node', 'elsewhere.js'], { cwd: '/home' }),
    p(112, 101, ['node', '/repo/node_modules/vitest/dist/workers/forks.js']), // vitest's path, but a test started it
    p(114, 101, ['node (vitest 1)']), // a worker's title, but a test started it
    p(116, 1, ['sleep', '600'], { runId: 'run-1/nested-2' }), // left by a run nested in this one
    p(117, 1, ['node', '/repo/node_modules/typescript/bin/tsc', '-p', '/repo/test-artifacts/guides-1/tsconfig.json'], { runId: 'outer-0' }), // another run's, pointing in
    p(118, 1, ['sleep', '600'], { runId: 'run-10' }), // a run whose id merely starts with this one's
    p(119, MAIN, ['/bin/sh', '-c', 'cat /proc/cpuinfo | grep "physical id" | sort |uniq | wc -l']), // tinypool counting cores
    // A worker's own probe (each worker loads tinypool too) and its pipeline: a fresh clone's CI run saw them.
    p(120, 101, ['/bin/sh', '-c', 'cat /proc/cpuinfo | grep "physical id" | sort |uniq | wc -l']),
    p(121, 120, ['wc', '-l']),
    // The same probe under a server a test started: that test's, judged.
    p(122, 103, ['/bin/sh', '-c', 'cat /proc/cpuinfo | grep "core id" | sort | uniq | wc -l']),
  ];

  it("finds the descendants, the run's environment (its own and its nested runs') and the temp folders; not vitest, esbuild, zombies, earlier processes or another run's", () => {
    expect(findLeftovers(table, options).map((x) => x.pid).sort((a, b) => a - b)).toEqual([103, 104, 106, 108, 109, 112, 114, 116, 122]);
  });

  it('names a process by pid, parent, folder and command line, credentials hidden', () => {
    expect(describeProcess(table.find((x) => x.pid === 103)!)).toBe('pid 103 (parent 101): node cli/storefront-contract.ts mock --admin-token [redacted] --secret=[redacted]');
    expect(describeProcess(table.find((x) => x.pid === 108)!)).toBe('pid 108 (parent 1, in /repo/test-artifacts/guides-1): bash block.sh');
  });
});
