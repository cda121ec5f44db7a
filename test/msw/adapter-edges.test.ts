// Two edges of the MSW adapter, both found by running the suite through MSW in Node (`npm run test:adapters`):
// - it hands every request under its base URL to the engine, whatever its path: one with malformed
//   percent-encoding gets the engine's 400 envelope, as on HTTP (test/sandbox/unhappy.test.ts), not MSW's
//   own 500 with a stack trace (the handler's `${base}/*` pattern made MSW decode the path while matching);
// - close() ends a request waiting out a delay (a network error, as a closed server's socket), instead of
//   leaving it to hang for the delay's length.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxHandlers, type InProcessSandbox } from 'storefront-contract-tools/msw';

const BASE = 'https://shop.test/backend';
let sandbox: InProcessSandbox;
let server: ReturnType<typeof setupServer>;

beforeAll(async () => {
  sandbox = await createSandboxHandlers({ baseUrl: BASE, webhooks: false });
  server = setupServer(...sandbox.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});

afterAll(async () => {
  server.close();
  await sandbox.close();
});

describe('the MSW adapter: any path under the base reaches the engine', () => {
  it.each([
    ['bad percent-encoding in an id', '/pos/carts/%E0%A4%A', 400, 'invalid_parameter'],
    ['a lone percent sign', '/pos/carts/%', 400, 'invalid_parameter'],
    ['a well-formed path, an unknown token', '/pos/carts/crt_8N2F6Q', 401, 'unauthorized'],
  ])('%s: %s is answered %i with the envelope, no stack', async (_name, path, status, code) => {
    const res = await fetch(`${BASE}/api/v1/demo-store/storefront${path}`, { headers: { authorization: 'Bearer never-issued' } });
    const text = await res.text();
    expect([res.status, JSON.parse(text).content.error.code]).toEqual([status, code]);
    expect(text).not.toMatch(/URIError|stack|at /);
  });

  it('close() ends a request waiting out its delay, and later requests are refused', async () => {
    const own = await createSandboxHandlers({ baseUrl: 'http://closing.test', webhooks: false });
    server.use(...own.handlers);
    const key = { 'x-api-key': own.apiKey() };
    const token = ((await (await fetch('http://closing.test/api/v1/demo-store/storefront/auth/anonymous', { method: 'POST', headers: key })).json()) as { content: { access_token: string } }).content.access_token;
    const started = performance.now();
    const pending = fetch('http://closing.test/api/v1/demo-store/storefront/common/countries', { headers: { authorization: `Bearer ${token}`, prefer: 'delay=60000' } }).then(
      (r) => `answered ${r.status}`,
      (e: Error) => e.name,
    );
    await new Promise((r) => setTimeout(r, 200));
    await own.close();
    expect(await pending).toBe('TypeError');
    expect(performance.now() - started).toBeLessThan(30_000);
    await expect(fetch('http://closing.test/api/v1/demo-store/storefront/common/countries')).rejects.toThrow();
  });

  it('leaves the base itself and other prefixes to onUnhandledRequest', async () => {
    await expect(fetch('https://shop.test/backendx/api/v1/demo-store/storefront/common/countries')).rejects.toThrow();
    await expect(fetch('https://shop.test/api/v1/demo-store/storefront/common/countries')).rejects.toThrow();
  });
});
