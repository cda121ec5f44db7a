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
  /** Settles when the child exits, with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

export interface StartOptions {
  /** The child's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** The command line around node's: `(argv) => ['prlimit', '--fsize=1000', ...argv]`. */
  wrap?: (argv: string[]) => string[];
}

/** Registers the afterAll that kills what `start` spawned; call it once at the top of a test file. */
export function mockCli(): { start(args: string[], ready: string, options?: StartOptions): Promise<RunningMock> } {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  return {
    /** Resolves when the banner holds the URL and `ready` (a line the banner ends with). */
    start(args, ready, options = {}) {
      const [command, ...argv] = (options.wrap ?? ((a) => a))([process.execPath, ...mockArgs(args)]);
      const child = spawn(command, argv, { cwd: repoRoot, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      return new Promise((resolve, reject) => {
        let stdout = '';
        let stderr = '';
        child.stderr!.on('data', (c) => (stderr += c));
        child.stdout!.on('data', (c) => {
          stdout += c;
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
          if (m && stdout.includes(ready)) resolve({ child, stdout, url: m[1], exited });
        });
        child.once('exit', (code) => reject(new Error(`mock exited with ${code} before listening: ${stdout}${stderr}`)));
      });
    },
  };
}

/** Stops a child with SIGTERM (as Ctrl-C or a service manager would); resolves with its exit code once it has exited. */
export async function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}
