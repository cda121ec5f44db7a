// `npm run certify -- --all`: REST and webhook certification in one run against the workbench.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';
import { hangGuard } from '../helpers/hang-guard.js';

describe('certify --all', () => {
  let dir: string;
  afterAll(async () => dir && rm(dir, { recursive: true, force: true }));

  it('certifies the embedded workbench for REST and webhooks, with both sets of reports', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-certify-all-'));
    const result = await run(path.join(repoRoot, 'node_modules/.bin/tsx'), ['cli/storefront-contract.ts', 'certify', '--all', '--quiet', '--report-dir', dir], { cwd: repoRoot, timeoutMs: hangGuard(120_000) });
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(/certify --all: REST certified, webhooks certified/);
    const rest = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8'));
    const webhooks = JSON.parse(await readFile(path.join(dir, 'webhooks-sender/report.json'), 'utf8'));
    expect(rest.verdict).toBe('certified');
    expect(webhooks.verdict).toBe('certified');
    expect(result.output).not.toMatch(/\n\s+at /); // no stack trace
  });
});
