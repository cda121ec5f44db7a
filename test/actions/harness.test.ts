// The harness itself (harness.ts), where a test of an action would otherwise pass or hang for the wrong
// reason: a `run:` step that never ends is killed at its time-out (issue 38: bash ran with none), with its
// children; a stand-in for a `uses:` step that throws fails the step, as the real action failing would.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAction } from './harness.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sfc-harness-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function action(steps: string): string {
  const file = path.join(dir, `action-${Math.random().toString(36).slice(2)}.yml`);
  writeFileSync(file, `name: t\ninputs: {}\nruns:\n  using: composite\n  steps:\n${steps}`);
  return file;
}

/** A process exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2].startsWith('Z');
  } catch {
    return false;
  }
}

describe('the Actions harness', () => {
  it('kills a run step past its time-out, with the processes it started, and fails the job (exit 124)', async () => {
    const pidFile = path.join(dir, 'child-pid');
    const file = action(`    - id: hang\n      shell: bash\n      run: |\n        sleep 60 &\n        echo $! > "${pidFile}"\n        sleep 30\n    - id: after\n      if: always()\n      shell: bash\n      run: echo ran\n`);
    const run = await runAction(file, { inputs: {}, workspace: dir, stepTimeoutMs: 500 });
    const hang = run.steps.find((s) => s.id === 'hang')!;
    expect(hang.code).toBe(124);
    expect(hang.output).toContain('the step did not finish within 500 ms: killed');
    expect(run.failed).toBe(true);
    expect(run.steps.find((s) => s.id === 'after')!.code).toBe(0);
    // The background child was in the step's process group: it died with it.
    const child = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => alive(child)).toBe(false);
  });

  it('issue 38: a step that ends (failing here) stops what it left in the background, at once, not at the time-out', async () => {
    const pidFile = path.join(dir, 'left-pid');
    const file = action(`    - id: leaves\n      shell: bash\n      run: |\n        sleep 60 &\n        echo $! > "${pidFile}"\n        false\n`);
    const run = await runAction(file, { inputs: {}, workspace: dir, stepTimeoutMs: 60_000 });
    // Its own exit code, not the time-out's 124: the step ended when bash did.
    expect(run.steps[0]).toMatchObject({ id: 'leaves', code: 1 });
    expect(run.failed).toBe(true);
    const child = Number(readFileSync(pidFile, 'utf8'));
    expect(child).toBeGreaterThan(1);
    await expect.poll(() => alive(child)).toBe(false);
  });

  it('a step that ends in time is not touched', async () => {
    const run = await runAction(action(`    - id: quick\n      shell: bash\n      run: echo done\n`), { inputs: {}, workspace: dir, stepTimeoutMs: 10_000 });
    expect(run.steps[0]).toMatchObject({ code: 0, output: 'done\n' });
    expect(run.failed).toBe(false);
  });

  it('a stand-in that throws fails its step and the job', async () => {
    const run = await runAction(action(`    - uses: actions/upload-artifact@v4\n      with: { name: x }\n    - id: next\n      shell: bash\n      run: echo skipped\n`), {
      inputs: {},
      workspace: dir,
      uses: {
        'actions/upload-artifact@': () => {
          throw new Error('(409) Conflict');
        },
      },
    });
    expect(run.steps[0]).toMatchObject({ code: 1, output: 'Error: (409) Conflict' });
    expect(run.steps[1].skipped).toBe(true);
    expect(run.failed).toBe(true);
  });
});
