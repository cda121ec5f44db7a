// What a test leaves behind, undone after it (an afterEach, newest first): servers closed, children
// stopped, temporary folders removed. Call `cleanupAfterEach()` once at the top of a test file.
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
      const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      return dir;
    },
  };
}
