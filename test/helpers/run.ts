// Runs a command to completion and returns its exit code and output (for CLI tests).
import { spawn } from 'node:child_process';
import { hangGuard } from './hang-guard.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  output: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Killed (its process group with `group`) after this long. Default 120 s (a hang guard: hang-guard.ts). */
  timeoutMs?: number;
  /**
   * Runs the command as the leader of its own process group (`detached`) and, once it exits (pass, fail
   * or time-out), kills the whole group: what it started in the background (`server &` in a script)
   * is stopped too, instead of running on and holding the output pipes open.
   */
  group?: boolean;
}

export function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.group ?? false });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (c) => ((stdout += c), (output += c)));
    child.stderr.on('data', (c) => ((stderr += c), (output += c)));
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const timeoutMs = options.timeoutMs ?? hangGuard(120_000);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (options.group) killGroup();
      else child.kill('SIGKILL');
    }, timeoutMs);
    if (options.group) child.once('exit', killGroup);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      // Said in the output, so a killed run reads as a time-out, not as an exit 1 without a word.
      const note = timedOut ? `\n(run: killed, still running after ${timeoutMs} ms)\n` : '';
      resolve({ code: code ?? 1, stdout, stderr: stderr + note, output: output + note });
    });
  });
}
