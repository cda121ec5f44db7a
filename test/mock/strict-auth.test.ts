// --strict-auth: only access tokens issued by this mock's POST /auth/anonymous open Bearer operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { apiKey, bearer, call, loadContract, startMock, storefront, type Contract } from './helpers.js';

let server: MockServer;
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
  server = await startMock({ strictAuth: true });
});
afterAll(() => server?.close());

async function issue(): Promise<any> {
  const reply = await call(storefront(server), 'POST', '/auth/anonymous', { headers: apiKey() });
  expect(reply.status).toBe(200);
  expect(contract.check('POST', '/auth/anonymous', 200, reply.json)).toEqual([]);
  return reply.json.content;
}

describe('strict auth', () => {
  it('a token from POST /auth/anonymous opens a Bearer operation', async () => {
    const { access_token } = await issue();
    const reply = await call(storefront(server), 'GET', '/catalog/products', { headers: bearer(access_token) });
    expect(reply.status).toBe(200);
  });

  it('works for any store and any Bearer operation', async () => {
    const { access_token } = await issue();
    const reply = await call(storefront(server, 'other-store'), 'GET', '/common/countries', { headers: bearer(access_token) });
    expect(reply.status).toBe(200);
  });

  it('each call issues fresh tokens and a fresh user id', async () => {
    const [a, b] = await Promise.all([issue(), issue()]);
    expect(a.access_token).not.toBe(b.access_token);
    expect(a.refresh_token).not.toBe(b.refresh_token);
    expect(a.user.id).not.toBe(b.user.id);
  });

  it.each([
    ['a made-up token', () => 'made-up-token-123'],
    ['the static example token', () => (contract.firstExample('POST', '/auth/anonymous', 200) as any).content.access_token as string],
  ])('%s gets 401', async (_n, token) => {
    const reply = await call(storefront(server), 'GET', '/catalog/products', { headers: bearer(token()) });
    expect(reply.status).toBe(401);
    expect(contract.check('GET', '/catalog/products', 401, reply.json)).toEqual([]);
    expect(reply.json.message).toMatch(/strict/);
  });

  it('the refresh token is not an access token', async () => {
    const { refresh_token } = await issue();
    const reply = await call(storefront(server), 'GET', '/catalog/products', { headers: bearer(refresh_token) });
    expect(reply.status).toBe(401);
  });

  it('API-key operations still take any well-formed key', async () => {
    const reply = await call(storefront(server), 'POST', '/auth/anonymous', { headers: apiKey('another_key_9') });
    expect(reply.status).toBe(200);
  });
});
