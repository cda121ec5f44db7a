// The MSW adapter hands every request under its base URL to the engine, whatever its path: one with
// malformed percent-encoding gets the engine's 400 envelope, as on HTTP (test/sandbox/unhappy.test.ts),
// not MSW's own 500 with a stack trace. Found by running the sandbox's suite through MSW in Node
// (`npm run test:adapters`): the handler's `${base}/*` pattern made MSW decode the path while matching.
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

  it('leaves the base itself and other prefixes to onUnhandledRequest', async () => {
    await expect(fetch('https://shop.test/backendx/api/v1/demo-store/storefront/common/countries')).rejects.toThrow();
    await expect(fetch('https://shop.test/api/v1/demo-store/storefront/common/countries')).rejects.toThrow();
  });
});
