// What people read first: the help of the `storefront-contract` bin and of each workbench
// subcommand, snapshotted. A change to a flag or its text shows up in review as a snapshot diff.
// The texts come from the command run in-process (test/helpers/cli-in-process.ts); the last two tests
// spawn the bin itself, for what only a process shows: its exit code and the streams it writes to.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { runCli } from '../helpers/cli-in-process.js';
import { run } from '../helpers/run.js';

const bin = path.join(repoRoot, 'cli/storefront-contract.ts');
const cli = (args: string[]) => run(process.execPath, ['--import', 'tsx', bin, ...args], { cwd: repoRoot });

describe('storefront-contract help', () => {
  it.each([
    ['top', ['--help']],
    ['mock', ['mock', '--help']],
    ['webhooks', ['webhooks', '--help']],
    ['webhooks-listen', ['webhooks', 'listen', '--help']],
    ['certify', ['certify', '--help']],
    ['certify-merge', ['certify', 'merge', '--help']],
    ['certify-webhooks', ['certify-webhooks', '--help']],
    ['record', ['record', '--help']],
    ['proxy', ['proxy', '--help']],
    ['mcp', ['mcp', '--help']],
  ])('%s', async (name, args) => {
    const result = await runCli(args);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    await expect(result.stdout).toMatchFileSnapshot(`__snapshots__/help-${name}.txt`);
  });

  // `changelog` runs from a clone's bin (scripts/bin/storefront-contract.mjs), which sends the rest here.
  it('changelog (the bin of a clone)', async () => {
    const result = await run(process.execPath, ['--conditions=sfc-source', '--import', 'tsx', path.join(repoRoot, 'scripts/bin/storefront-contract.mjs'), 'changelog', '--help'], { cwd: repoRoot });
    expect(result.code).toBe(0);
    await expect(result.stdout).toMatchFileSnapshot('__snapshots__/help-changelog.txt');
  });

  it('changelog from the installed bin says where it runs (one line, exit 2)', async () => {
    const result = await runCli(['changelog', '0.1.0', '0.2.0']);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^storefront-contract changelog: runs in a clone of the contract repository .*npx storefront-contract changelog <old> <new>.*\/docs\/changelog\.html$/);
  });

  it('no command prints the help on stdout and exits 2', async () => {
    const result = await cli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^Usage: storefront-contract <command>/);
  });

  it('an unknown command is one line naming the commands', async () => {
    const result = await cli(['mokc']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'))).toEqual([
      'storefront-contract: unknown command "mokc"; the commands are mock, webhooks, certify, certify-webhooks, record, mcp, changelog, proxy (see --help).',
    ]);
  });

  it('--version prints the package version', async () => {
    const result = await runCli(['--version']);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
