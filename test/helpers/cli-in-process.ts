// The `storefront-contract` command run in this process (cli/main.ts `main`), for the many tests of what
// it prints and the code it returns: usage errors, help. No child process and no second module graph, so
// each costs milliseconds instead of a node + tsx start (most of a second of CPU). The bin's own part
// (the process's exit code, broken pipes) is tested by spawning it (test/cli/help.test.ts, test/cli/broken-pipe.test.ts, and the tests
// that start a workbench or certify through the bin).
// Runs one command at a time (stdout, stderr and the environment are the process's own): never in a
// concurrent test.
import { vi } from 'vitest';
import { main } from '../../cli/main.js';
import type { RunResult } from './run.js';

let running = false;

/**
 * Captures what this process writes to stdout and stderr (kept from the terminal) until `restore`: for
 * a command run in-process, finished (runCli) or long-running (a test that stops it another way).
 */
export function captureOutput(): { stdout: () => string; stderr: () => string; output: () => string; restore: () => void } {
  let stdout = '';
  let stderr = '';
  let output = '';
  const capture = (into: 'stdout' | 'stderr') => (chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (into === 'stdout') stdout += text;
    else stderr += text;
    output += text;
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture('stdout') as typeof process.stdout.write);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture('stderr') as typeof process.stderr.write);
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    restore: () => {
      out.mockRestore();
      err.mockRestore();
    },
  };
}

export async function runCli(argv: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  if (running) throw new Error('runCli: one command at a time (it captures process.stdout/stderr)');
  running = true;
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const captured = captureOutput();
  try {
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    const code = await main(argv);
    return { code, stdout: captured.stdout(), stderr: captured.stderr(), output: captured.output() };
  } finally {
    captured.restore();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    running = false;
  }
}
