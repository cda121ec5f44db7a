// A CLI whose output pipe closes (`storefront-contract mock | head -1`, or a parent that died) stops, as
// a Unix tool stopped by SIGPIPE does. It once spun for ever instead: each failed write raised an error
// whose report, written to the same closed pipe, failed again.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { hangGuard } from '../helpers/hang-guard.js';

let child: ChildProcess | undefined;
// Stopped by handle even when the test fails or times out (a spinning child must not outlive the run).
afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('the bin with its output pipe closed', () => {
  it('a running mock exits once it cannot write its request log, instead of spinning on the broken pipe', async () => {
    const mock = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'cli/storefront-contract.ts'), 'mock', '--port', '0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = mock;
    const exited = new Promise<number | null>((resolve) => mock.once('exit', (code) => resolve(code)));
    {
      // The banner's first line names the address; then the reader goes away, as `| head -1` does.
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        mock.stdout.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
          if (m) resolve(m[1]);
        });
        mock.once('exit', () => reject(new Error(`the mock exited before listening:\n${seen}`)));
      });
      mock.stdout.destroy();
      mock.stderr.destroy();
      // Requests keep coming: each is a log line the workbench now cannot write.
      for (let i = 0; i < 5 && mock.exitCode === null; i++) {
        await fetch(`${url}/api/v1/demo-store/storefront/common/countries`).then((r) => r.arrayBuffer()).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await exited).toBe(0);
    }
  }, hangGuard(60_000));
});
