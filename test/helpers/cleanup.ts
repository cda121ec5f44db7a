// What a test leaves behind, undone after it (an afterEach, newest first): servers closed, children
// stopped, temporary folders removed. Call `cleanupAfterEach()` once at the top of a test file.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

export interface Cleanup {
  /** Runs `fn` after the current test, before what was deferred earlier. */
  defer(fn: () => unknown): void;
  /** A new folder in the system's temporary folder, named `<prefix>XXXXXX`, removed after the current test. */
  tempDir(prefix: string): Promise<string>;
}

/** A new folder in the system's temporary folder, named `<prefix>XXXXXX`, and how to remove it. */
export async function makeTempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function cleanupAfterEach(): Cleanup {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return {
    defer(fn) {
      cleanups.push(fn);
    },
    async tempDir(prefix) {
      const { dir, remove } = await makeTempDir(prefix);
      cleanups.push(remove);
      return dir;
    },
  };
}

/**
 * Stops a child process if it still runs and waits for it to be gone: SIGKILL to its whole process group
 * when it was spawned `detached` (it leads one: what it started dies with it), else to the child alone.
 */
export async function killChild(child: ChildProcess, options: { group?: boolean } = {}): Promise<void> {
  const group = options.group ?? false;
  const running = child.exitCode === null && child.signalCode === null;
  if (group && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  } else if (running) child.kill('SIGKILL');
  if (running && child.pid !== undefined) await new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** SIGKILL to each pid still running (for processes a test knows only by pid: detached grandchildren). */
export function killPids(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
