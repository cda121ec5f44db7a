// `storefront-contract mock` (`npm start`) as a real child process: prints its URLs, serves, stops on SIGTERM;
// its usage errors and help run in-process (test/helpers/cli-in-process.ts).
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-in-process.js';
import { mockCli, stopChild } from '../helpers/mock-cli.js';
import { sandboxApiKey } from '../../workbench/index.js';
import { apiKey, bearer, call } from './helpers.js';

const mock = mockCli();
const startCli = (args: string[]) => mock.start(args, 'docs');

describe('cli', () => {
  it('prints the storefront, admin and docs URLs, serves, and exits 0 on SIGTERM', async () => {
    const { child, stdout, url } = await startCli(['--port', '0', '--quiet']);
    expect(stdout).toContain(`${url}/api/v1/{store_id}/storefront`);
    expect(stdout).toMatch(/admin/);
    expect(stdout).toContain(`${url}/docs`);
    // The workbench's storefront is the sandbox: strict by default, it opens with the store's own key and a token it issued.
    const anon = await call(url, 'POST', '/api/v1/any-store/storefront/auth/anonymous', { headers: apiKey(sandboxApiKey('any-store')) });
    expect(anon.status).toBe(200);
    const reply = await call(url, 'GET', '/api/v1/any-store/storefront/common/countries', { headers: bearer(anon.json.content.access_token) });
    expect(reply.status).toBe(200);
    expect(reply.json.content.countries.length).toBeGreaterThan(0);
    expect((await call(url, 'GET', '/api/v1/any-store/storefront/common/countries', { headers: bearer() })).status).toBe(401);
    expect(await stopChild(child)).toBe(0);
  });

  it('--help prints usage and exits 0', async () => {
    const r = await runCli(['mock', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--strict-auth');
  });

  it.each([
    [['--port', 'abc'], '--port must be an integer from 0 to 65535, got "abc"'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535'],
    [['--no-such-flag'], "Unknown option '--no-such-flag'"],
    [['--max-body-bytes', '-1'], '--max-body-bytes'],
    [['--time-scale', '0'], '--time-scale: time scale must be a positive number'],
    [['--api-key', ''], '--api-key is empty; give the value or set STOREFRONT_API_KEY instead'],
    [['--spec', '/no/such/storefront.yaml'], '--spec /no/such/storefront.yaml: no such file'],
  ])('%j is refused with exit code 2 and one line naming the flag and the fix', async (args, problem) => {
    const r = await runCli(['mock', ...args]);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(problem);
    expect(lines[0]).toMatch(/^storefront-contract mock: .*; see storefront-contract mock --help$/);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535, got "abc"'],
    [{ WEBHOOK_TIME_SCALE: 'abc' }, 'WEBHOOK_TIME_SCALE: time scale must be a positive number'],
  ])('%j from the environment is refused naming the variable, not a flag', async (env, problem) => {
    const r = await runCli(['mock'], env);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toEqual([expect.stringContaining(problem)]);
  });
});
