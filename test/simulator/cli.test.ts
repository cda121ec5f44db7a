// `storefront-contract webhooks trigger ...` (`npm run webhooks --`) against a workbench started in process: the CLI posts to
// /__simulator, prints what was scheduled, and the subscriber receives the overridden event.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhook, expectAllValid, startReceiver, startWorkbench, waitFor, type Bench, type Receiver } from './helpers.js';
import { runCli } from '../helpers/cli-in-process.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const cli = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', path.join(root, 'cli/storefront-contract.ts'), 'webhooks', ...args], { cwd: root }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

let bench: Bench;
let r: Receiver;
beforeAll(async () => {
  bench = await startWorkbench({ timeScale: 0.01 });
  r = await startReceiver(() => ({ status: 200 }));
});
afterAll(async () => {
  await bench.close();
  await r.close();
});

describe('npm run webhooks', () => {
  it('trigger <event> --set ... delivers the overridden example and prints the deliveries', async () => {
    const { id, secret } = await createWebhook(bench.server, 'cli-store', { url: r.url, events: ['order.created'] });
    const out = await cli(['trigger', 'order.created', '--store', 'cli-store', '--url', bench.server.url, '--set', 'order_number=SO-CLI-1']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^order\.created evt_\w+ raised in store cli-store/);
    expect(out.stdout).toContain(`-> ${id} ${r.url}`);
    await waitFor(() => r.captured.length === 1, 'the delivery');
    expect(r.captured[0].body.payload.properties.order_number).toBe('SO-CLI-1');
    await expectAllValid(r.captured, secret);
  });

  it('names the problem and exits 1 when the workbench refuses the event', async () => {
    const out = await cli(['trigger', 'order.created', '--url', bench.server.url, '--set', 'order_number=5']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('properties.order_number: must be string');
  });

  // In-process (test/helpers/cli-in-process.ts): the help and refusals need no child process.
  it('--help, and usage errors exit 2', async () => {
    const help = await runCli(['webhooks', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('trigger <event>');
    expect((await runCli(['webhooks', 'trigger'])).code).toBe(2);
    expect((await runCli(['webhooks', 'explode'])).code).toBe(2);
  });

  it('a --url that is no http:// address is a usage error (exit 2) naming the flag, not "could not reach"', async () => {
    const out = await runCli(['webhooks', 'trigger', 'order.created', '--url', 'notaurl']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/--url must be the workbench's http:\/\/ address/);
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
  });
});
