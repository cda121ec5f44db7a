// run() with `group` (what test/docs/guides-run.test.ts runs each guide block with): the block leads its
// own process group, killed whole when it ends, so a server it started with `&` never outlives it, pass or
// fail, and a failed block returns at once instead of waiting on the pipes its server holds open.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killPids, makeTempDir } from './cleanup.js';
import { run } from './run.js';
import { hangGuard } from './hang-guard.js';

const { dir, remove: removeDir } = await makeTempDir('sfc-run-group-');
const started: number[] = [];
afterAll(async () => {
  killPids(started);
  await removeDir();
});

/** A process exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
  } catch {
    return false;
  }
}

describe.runIf(process.platform === 'linux')('issue 38: a guide block\'s background servers stop with the block', () => {
  it.each([
    ['fails after starting a server with &', 'false', 1],
    ['passes leaving a server started with &', 'true', 0],
  ])('issue 38: a block that %s: its exit code, at once, and the server is gone', async (name, last, code) => {
    const pidFile = path.join(dir, `${code}.pid`);
    const script = path.join(dir, `${code}.sh`);
    // The server writes to the block's stdout, so it holds the output pipe open as long as it runs.
    await writeFile(script, `sleep 600 &\necho $! > "${pidFile}"\necho started\n${last}\n`);
    const r = await run('bash', ['-euo', 'pipefail', script], { group: true, timeoutMs: hangGuard(60_000) });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    started.push(pid);
    expect(r.code, name).toBe(code);
    expect(r.stdout).toBe('started\n');
    await expect.poll(() => alive(pid)).toBe(false);
  });

  it('issue 38: without `group` the same server outlives its block (what the guides runner did before)', async () => {
    const pidFile = path.join(dir, 'plain.pid');
    const script = path.join(dir, 'plain.sh');
    await writeFile(script, `sleep 600 > /dev/null 2>&1 &\necho $! > "${pidFile}"\nfalse\n`);
    const r = await run('bash', ['-euo', 'pipefail', script], { timeoutMs: hangGuard(60_000) });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    started.push(pid);
    expect(r.code).toBe(1);
    expect(alive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => alive(pid)).toBe(false);
  });
});
