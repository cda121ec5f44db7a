// The CLI's contract: exit 0 certified, 1 not, 2 usage error or unreachable target, one line and no stack
// for errors, and the secret never on the output.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startReceiverApp } from '../webhooks/apps/index.js';
import { startFaultyReceiver } from './receivers.js';
import { run } from '../helpers/run.js';
import { runCli } from '../helpers/cli-in-process.js';

const SECRET = 'whsec_cli_test_31f0';
const dir = mkdtempSync(path.join(tmpdir(), 'certify-webhooks-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const repoDir = path.resolve(import.meta.dirname, '../..');
const cli = (args: string[]) => run(process.execPath, ['--import', 'tsx', 'cli/storefront-contract.ts', 'certify-webhooks', ...args], { cwd: repoDir });

describe('npm run certify:webhooks', () => {
  it.each([
    ['no secret for the receiver', ['receiver', '--url', 'http://127.0.0.1:9/x'], /--secret/],
    ['an unknown command', ['transmitter'], /unknown command/],
    ['an event outside the contract', ['sender', '--secret', 'x', '--event', 'order.shipped_to_moon'], /not an event of the contract/],
  ])('exits 2 on %s', async (_name, args, message) => {
    // In-process (test/helpers/cli-in-process.ts): refused before anything is sent.
    const r = await runCli(['certify-webhooks', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('exits 2 with one line when the receiver is unreachable', async () => {
    const r = await cli(['receiver', '--url', 'http://127.0.0.1:9/webhooks', '--secret', SECRET, '--report-dir', path.join(dir, 'none')]);
    expect(r.code).toBe(2);
    // One line, at the first refused connection: no progress line per probe group before it.
    expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'))).toEqual([expect.stringMatching(/^certify-webhooks: receiver at .* is unreachable: ECONNREFUSED$/)]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr + r.stdout).not.toContain(SECRET);
  });

  it('exits 0 for a kit receiver and writes the reports', async () => {
    const { app } = await startReceiverApp('node', { secrets: [SECRET] });
    try {
      const out = path.join(dir, 'ok');
      const r = await cli(['receiver', '--url', app.url, '--secret', SECRET, '--report-dir', out]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('CERTIFIED');
      expect(r.stderr + r.stdout).not.toContain(SECRET);
      expect(readdirSync(out).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
    } finally {
      await app.close();
    }
  });

  it('exits 1 for a faulty receiver and names the rule', async () => {
    const { app, probe } = await startFaultyReceiver(SECRET, 'accepts-any-signature');
    try {
      const r = await cli(['receiver', '--url', app.url, '--secret', SECRET, '--report-dir', path.join(dir, 'bad')]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/NOT CERTIFIED[\s\S]*failing rules: .*receiver-rejects-bad-signature/);
    } finally {
      await app.close();
      await probe.close();
    }
  });
});
