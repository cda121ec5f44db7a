// The issue's check, as a user runs it: `npm start`, then `storefront-contract certify --base-url <url>
// --generate 10` with the key the banner printed. Both are the real CLI in child processes: the mock is
// started with the command of package.json's "start" script (tsx's loader instead of its wrapper, so the
// handle killed is the server itself) on a free port; certify reads the key from STOREFRONT_API_KEY.
// Out of the box it certifies: the generated "API key of no store" case gets its 401.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';

const children: ChildProcess[] = [];
const reports = mkdtempSync(path.join(os.tmpdir(), 'npm-start-certify-'));
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(reports, { recursive: true, force: true });
});

/** `npm start`'s command line: `tsx <node flags> <script> mock`, run as node --import tsx <node flags> <script> mock. */
function startCommand(): string[] {
  const start = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
  const [tsx, ...args] = start.split(/\s+/);
  expect(tsx).toBe('tsx');
  expect(args.at(-1)).toBe('mock');
  return ['--import', 'tsx', ...args];
}

/** Starts `npm start -- --port 0` and resolves with its URL and the store key printed in the banner. */
function npmStart(): Promise<{ child: ChildProcess; url: string; key: string; stdout: string }> {
  const child = spawn(process.execPath, [...startCommand(), '--port', '0'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, STOREFRONT_API_KEY: '' } });
  children.push(child);
  child.stderr!.resume();
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      const key = /store API key of demo-store: (\S+) /.exec(stdout)?.[1];
      if (url && key) resolve({ child, url, key, stdout });
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code} before printing its banner:\n${stdout}`)));
  });
}

describe('npm start, then certify --generate 10', () => {
  it('certifies with the key the banner printed (exit 0)', async () => {
    const mock = await npmStart();
    expect(mock.stdout).toContain('(a sandbox test key, printed on purpose');
    const certify = await run(
      process.execPath,
      ['--import', 'tsx', 'cli/storefront-contract.ts', 'certify', '--base-url', mock.url, '--generate', '10', '--concurrency', '4', '--quiet', '--report-dir', reports],
      { cwd: repoRoot, env: { ...process.env, STOREFRONT_API_KEY: mock.key } },
    );
    expect(certify.stdout, certify.output).toMatch(new RegExp(`^CERTIFIED: ${mock.url.replace(/\./g, '\\.')} \\(store demo-store\\)`, 'm'));
    expect(certify.code, certify.output).toBe(0);
    expect(certify.stdout).toMatch(/generated: \d+ cases .*again with --generate 10 --seed \d+/);
    // The case the default sandbox used to fail: a made-up key, answered 401 and passed.
    const report = JSON.parse(readFileSync(path.join(reports, 'report.json'), 'utf8')) as { exchanges: Array<{ step: string; status: number; findings: unknown[] }> };
    const noStore = report.exchanges.filter((e) => e.step === 'security: an API key of no store');
    expect(noStore.length).toBeGreaterThan(0);
    for (const e of noStore) expect(e).toMatchObject({ status: 401, findings: [] });
    expect(certify.output).not.toContain(mock.key);
    const exit = new Promise<number | null>((resolve) => mock.child.once('exit', resolve));
    mock.child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
