// `npm run certify`: exit 0 only when certified, 1 when not, 2 for usage errors and unreachable
// targets (one line, no stack); progress on stderr, the summary on stdout, reports written.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { errorBody, startMock, TEST_API_KEY, transformingProxy } from './helpers.js';
import { closedPort } from '../helpers/closed-port.js';
import { runCli } from '../helpers/cli-in-process.js';

const certify = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, ['--import', 'tsx', 'cli/storefront-contract.ts', 'certify', ...args], { env: { ...process.env, ...env } });
/** The same command in-process (test/helpers/cli-in-process.ts), for refusals: no node + tsx start each. */
const certifyHere = (args: string[], env: Record<string, string> = {}) => runCli(['certify', ...args], env);

let dir: string;
let mock: MockServer;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'certify-cli-'));
  mock = await startMock();
});
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run certify', () => {
  it('refuses a --report-dir it could not write before sending anything: one line, exit 2', async () => {
    const r = await certifyHere(['--report-dir', 'package.json/reports', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^certify: --report-dir package\.json\/reports: .*package\.json is a file, not a folder; pass a folder$/)]);
    expect(r.stdout).toBe('');
  });

  // The default run (no arguments: the embedded mock, exit 0, progress, summary, reports) is certified once,
  // by test/conformance/snapshots.test.ts, which snapshots what it prints and writes.

  it('exits 1 when the target is not certified, naming the rule and the operation', async () => {
    const proxy = await transformingProxy(mock.url, {
      response(res, req, inner) {
        if (req.method === 'GET' && inner === '/common/countries') res.headers['content-type'] = 'text/plain';
      },
    });
    try {
      const r = await certify(['--base-url', proxy.url, '--api-key', TEST_API_KEY, '--report-dir', path.join(dir, 'faulty'), '--only', 'listCountries']);
      expect(r.code, r.output).toBe(1);
      expect(r.stdout).toMatch(/^NOT CERTIFIED/m);
      expect(r.stdout).toMatch(/content-type-json: listCountries/);
      expect(r.output).not.toContain(TEST_API_KEY);
    } finally {
      await proxy.close();
    }
  });

  it('certifies a server whose only findings are advice, unless --strict', async () => {
    // Page 0 refused with 422 instead of the spec's 400: the exact code is designed, so it is advice.
    const proxy = await transformingProxy(mock.url, {
      request(req) {
        if (req.url.searchParams.get('page') === '0') return { status: 422, headers: {}, body: errorBody('invalid_parameter', 'page must be at least 1') };
      },
    });
    try {
      const args = ['--base-url', proxy.url, '--api-key', TEST_API_KEY, '--only', 'listProducts', '--quiet'];
      const lenient = await certify([...args, '--report-dir', path.join(dir, 'advice')]);
      expect(lenient.code, lenient.output).toBe(0);
      expect(lenient.stdout).toMatch(/^CERTIFIED: /m);
      expect(lenient.stdout).toMatch(/warnings \(advice, not failing\): status-documented \(1, stated\)/);
      const strict = await certify([...args, '--strict', '--report-dir', path.join(dir, 'strict')]);
      expect(strict.code, strict.output).toBe(1);
      expect(strict.stdout).toMatch(/^NOT CERTIFIED \(strict\): /m);
      expect(strict.stdout).toMatch(/failing rules: status-documented/);
    } finally {
      await proxy.close();
    }
  });

  it('explains an unreachable target in one line, exit 2, no stack trace', async () => {
    const port = await closedPort();
    // The key from the environment, as CI passes it: nothing on the command line, nothing printed.
    const r = await certifyHere(['--base-url', `http://127.0.0.1:${port}`, '--report-dir', path.join(dir, 'unreachable')], { STOREFRONT_API_KEY: TEST_API_KEY });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toBe(`certify: nothing listens at http://127.0.0.1:${port}: start your server or fix --base-url\n`);
    expect(r.stderr).not.toContain(TEST_API_KEY);
  });

  it('refuses another store in one line naming --store-id, exit 2, the key from the environment never printed', async () => {
    // The storefront API of one store: any other store id is answered 404 in the error envelope, the
    // API-key login included.
    const proxy = await transformingProxy(mock.url, {
      request(req) {
        if (!req.url.pathname.startsWith('/api/v1/demo-store/')) return { status: 404, headers: {}, body: errorBody('not_found', 'No such store.') };
      },
    });
    try {
      const r = await certifyHere(['--base-url', proxy.url, '--store-id', 'other-store', '--report-dir', path.join(dir, 'wrong-store')], { STOREFRONT_API_KEY: TEST_API_KEY });
      expect(r.code, r.output).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(
        new RegExp(`^certify: store other-store not found at ${proxy.url.replace(/\./g, '\\.')} \\(404 with the error envelope on every storefront probe, the API-key login included\\): pass --store-id <the store's id on that server>$`, 'm'),
      );
      expect(r.output).not.toContain(TEST_API_KEY);
    } finally {
      await proxy.close();
    }
  });

  it.each([
    ['a web site (HTML everywhere)', 200, 'text/html; charset=utf-8', '<!doctype html><title>Shop</title>', /answers HTML, not the API: --base-url must be the API server's root/],
    ['a server with no storefront API (404 everywhere)', 404, 'application/json', '{"error":"not found"}', /nothing under .* answers the storefront API \(404 on every probe\): check --base-url \(the service root\) and --store-id/],
  ])('refuses %s in one line naming the fix, exit 2', async (_name, status, type, body, message) => {
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(status, { 'content-type': type }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
      const r = await certifyHere(['--base-url', url, '--report-dir', path.join(dir, 'misuse')], { STOREFRONT_API_KEY: TEST_API_KEY });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.output).not.toContain(TEST_API_KEY);
    } finally {
      server.close();
    }
  });

  it.each([
    [['--base-url', 'http://127.0.0.1:1'], /--base-url needs the store API key of the target: set STOREFRONT_API_KEY \(or pass --api-key\)/],
    [['--base-url', 'http://127.0.0.1:1/api/v1/demo-store/storefront', '--api-key', 'k'], /already holds the API path; give the service root \(--base-url http:\/\/127\.0\.0\.1:1\)/],
    [['--base-url', 'not a url', '--api-key', 'k'], /--base-url not a url is not a URL/],
    [['--concurrency', '0'], /--concurrency must be an integer from 1 to 256/],
    [['--only', 'listEverything'], /--only: listEverything is not a storefront operationId/],
    [['--input', 'cart_id'], /--input cart_id: expected <name>=<value>/],
  ])('rejects %j with exit 2', async (args, message) => {
    const r = await certifyHere(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
