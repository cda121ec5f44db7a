// `storefront-contract mock` as a child process, for the tests of its command line: started on a free
// port, resolved once its banner is printed, killed by PID after the file's tests.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';

const bin = path.join(repoRoot, 'cli/storefront-contract.ts');

/** node arguments that run `storefront-contract mock <args>` from the sources. */
export const mockArgs = (args: string[]) => ['--import', 'tsx', bin, 'mock', ...args];

export interface RunningMock {
  child: ChildProcess;
  stdout: string;
  url: string;
}

/** Registers the afterAll that kills what `start` spawned; call it once at the top of a test file. */
export function mockCli(): { start(args: string[], ready: string): Promise<RunningMock> } {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  return {
    /** Resolves when the banner holds the URL and `ready` (a line the banner ends with). */
    start(args, ready) {
      const child = spawn(process.execPath, mockArgs(args), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      return new Promise((resolve, reject) => {
        let stdout = '';
        child.stdout!.on('data', (c) => {
          stdout += c;
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
          if (m && stdout.includes(ready)) resolve({ child, stdout, url: m[1] });
        });
        child.once('exit', (code) => reject(new Error(`mock exited with ${code} before listening: ${stdout}`)));
      });
    },
  };
}
