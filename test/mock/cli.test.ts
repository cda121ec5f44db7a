// `npm start` (workbench/cli.ts) as a real child process: prints its URLs, serves, stops on SIGTERM.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/contract/spec-files.js';
import { bearer, call } from './helpers.js';

const cli = path.join(repoRoot, 'workbench/cli.ts');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function startCli(args: string[]): Promise<{ child: ChildProcess; stdout: string; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (c) => {
      stdout += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (m && stdout.includes('docs')) resolve({ child, stdout, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`cli exited with ${code} before listening: ${stdout}`)));
  });
}

describe('cli', () => {
  it('prints the storefront, admin and docs URLs, serves, and exits 0 on SIGTERM', async () => {
    const { child, stdout, url } = await startCli(['--port', '0', '--quiet']);
    expect(stdout).toContain(`${url}/api/v1/{store_id}/storefront`);
    expect(stdout).toMatch(/admin/);
    expect(stdout).toContain(`${url}/docs`);
    const reply = await call(url, 'GET', '/api/v1/any-store/storefront/common/countries', { headers: bearer() });
    expect(reply.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('--help prints usage and exits 0', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', cli, '--help'], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--strict-auth');
  });

  it.each([[['--port', 'abc']], [['--no-such-flag']], [['--max-body-bytes', '-1']]])('%j is refused with exit code 2', (args) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Usage');
  });
});
