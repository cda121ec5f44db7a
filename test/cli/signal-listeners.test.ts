// Long-running subcommands wait on Ctrl-C and `kill` through stopSignal (workbench/cli-support.ts) and
// leave no SIGINT/SIGTERM listener behind when they end, however they end. Run in-process (as an app's
// script or a test runner's worker runs them), a listener left behind kept the process deaf to SIGTERM
// and each run added two more. The commands run here for real, against real servers on loopback; a
// signal is delivered by calling the listener the command added, never by signalling this process.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureOutput } from '../helpers/cli-in-process.js';
import { runProxy } from '../../conformance/rest/observed/cli.js';
import { stopSignal } from '../../workbench/cli-support.js';
import { createWorkbench, type Workbench } from '../../workbench/index.js';
import { runListen } from '../../workbench/simulator/listen.js';

const counts = () => ({ SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') });

/** Polls every 10 ms for up to 5 s. */
const POLL = { timeout: 5_000, interval: 10 };

/** The listeners added since `before`, once the command has added them. */
function addedSince(before: Function[], signal: 'SIGINT' | 'SIGTERM'): Promise<Function[]> {
  return vi.waitFor(() => {
    const added = process.listeners(signal).filter((l) => !before.includes(l));
    if (!added.length) throw new Error(`no ${signal} listener was added`);
    return added;
  }, POLL);
}

let wb: Workbench;
let dir: string;
beforeAll(async () => {
  wb = await createWorkbench({ port: 0, quiet: true, webhooks: { timeScale: 0.01 } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'signal-listeners-'));
});
afterAll(async () => {
  await wb?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('stop signals', () => {
  it('stopSignal adds one listener per signal, resolves with the signal and removes both', async () => {
    const before = counts();
    const beforeTerm = process.listeners('SIGTERM');
    const signal = stopSignal();
    expect(counts()).toEqual({ SIGINT: before.SIGINT + 1, SIGTERM: before.SIGTERM + 1 });
    const [listener] = await addedSince(beforeTerm, 'SIGTERM');
    (listener as () => void)();
    expect(await signal.received).toBe('SIGTERM');
    expect(counts()).toEqual(before);
    signal.dispose(); // idempotent
    expect(counts()).toEqual(before);
  });

  it('the proxy stopped by POST /__proxy/stop leaves no listener', async () => {
    const before = counts();
    const out = captureOutput();
    let code: number;
    try {
      const running = runProxy(['--upstream', wb.url, '--port', '0', '--quiet', '--report-dir', path.join(dir, 'proxy')]);
      const url = await vi.waitFor(() => {
        const found = /^proxy: (http:\/\/127\.0\.0\.1:\d+) ->/m.exec(out.stdout())?.[1];
        if (!found) throw new Error(`the proxy printed no address: ${out.stdout()}`);
        return found;
      }, POLL);
      expect((await fetch(`${url}/__proxy/stop`, { method: 'POST' })).status).toBe(202);
      code = await running;
    } finally {
      out.restore();
    }
    // The verdict's code (0 certified, 1 not: no traffic was judged here), not a usage error or a crash.
    expect([0, 1]).toContain(code);
    expect(counts()).toEqual(before);
  });

  it('webhooks listen stopped by SIGTERM removes its subscription and leaves no listener', async () => {
    const before = counts();
    const beforeTerm = process.listeners('SIGTERM');
    const out = captureOutput();
    let code: number;
    try {
      const running = runListen(['--url', wb.url, '--store', 'signal-store']);
      const added = await addedSince(beforeTerm, 'SIGTERM');
      expect(added).toHaveLength(1);
      (added[0] as () => void)();
      code = await running;
    } finally {
      out.restore();
    }
    expect(code, out.stdout()).toBe(0);
    expect(out.stdout()).toMatch(/SIGTERM: subscription \S+ removed\./);
    expect(counts()).toEqual(before);
  });
});
