// The sign-in-again-on-401 session (src/client/session.ts) against the sandbox over loopback HTTP: a
// token the sandbox refuses (one issued for another store: the sandbox judges every token per store) is
// renewed once for any number of concurrent calls, each call is sent again once with the new token (a
// body too), a token refused again ends in one 401 and never a loop, the API key's own 401 is nobody's to
// retry, and the middleware works on a plain openapi-fetch client. Requests are counted by a recording
// fetch; nothing is timed.
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorefrontClient, storefrontBaseUrl, StorefrontApiError, tokenSession, type StorefrontClient, type StorefrontClientPaths, type StorefrontClientOptions } from 'storefront-contract';
import type { Workbench } from '../../workbench/index.js';
import { startWorkbench } from '../helpers/adapter.js';

/** The store API key the sandbox accepts: the one place this test names it. */
const API_KEY = 'sk_test_session_key';
const STORE = 'session-store';
let workbench: Workbench;

beforeAll(async () => {
  workbench = await startWorkbench({ port: 0, host: '127.0.0.1', quiet: true, webhooks: false, apiKeys: [API_KEY] });
});
afterAll(async () => workbench?.close());

/** A token the sandbox issued for another store: refused with 401 on this one. */
async function foreignToken(): Promise<string> {
  const res = await fetch(`${storefrontBaseUrl(workbench.url, 'other-store')}/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': API_KEY } });
  return ((await res.json()) as { content: { access_token: string } }).content.access_token;
}

interface Sent {
  method: string;
  path: string;
  auth: string | null;
  body: string;
  status: number;
}

/** A fetch that records every request it sends (and may hold one response back until `release`). */
function recorder(hold?: { path: string; until: Promise<void> }) {
  const sent: Sent[] = [];
  let held = false;
  const fetcher: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? await request.clone().text() : '';
    const response = await fetch(request);
    const path = new URL(request.url).pathname.replace(/^.*\/storefront/, '');
    sent.push({ method: request.method, path, auth: request.headers.get('authorization'), body, status: response.status });
    if (hold && !held && path === hold.path) {
      held = true;
      await hold.until;
    }
    return response;
  };
  return { sent, fetch: fetcher, signIns: () => sent.filter((s) => s.path === '/auth/anonymous').length };
}

function client(options: Partial<StorefrontClientOptions> & { fetch: typeof fetch }) {
  return createStorefrontClient({ baseUrl: workbench.url, storeId: STORE, apiKey: API_KEY, ...options });
}

/** A client that signs in anonymously with its API key whenever its session needs a token; `tokens` lists each one. */
function anonymousClient(options: Partial<StorefrontClientOptions> & { fetch: typeof fetch }) {
  const tokens: string[] = [];
  const c: StorefrontClient = client({
    ...options,
    signIn: async () => {
      const { access_token } = await c.signInAnonymously();
      tokens.push(access_token);
      return access_token;
    },
  });
  return Object.assign(c, { tokens });
}

const fulfillment = { cart_id: 'crt_8N2F6Q', delivery_pincode: '560038' };

describe('createStorefrontClient({ signIn })', () => {
  it('signs in on the first bearer calls, once for all of them', async () => {
    const rec = recorder();
    const c = anonymousClient({ fetch: rec.fetch });
    const { tokens } = c;
    const results = await Promise.all([c.GET('/common/countries'), c.GET('/common/countries'), c.POST('/shipping/fulfillment-options', { body: fulfillment })]);
    expect(results.map((r) => r.response.status)).toEqual([200, 200, 200]);
    expect(rec.signIns()).toBe(1);
    expect(tokens).toHaveLength(1);
    expect(rec.sent.filter((s) => s.path !== '/auth/anonymous').every((s) => s.auth === `Bearer ${tokens[0]}`)).toBe(true);
  });

  it('renews a refused token once for concurrent calls and sends each call again once, its body too', async () => {
    const rec = recorder();
    const stale = await foreignToken();
    const c = anonymousClient({ fetch: rec.fetch, accessToken: stale });
    const results = await Promise.all([
      c.GET('/common/countries'),
      c.GET('/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C' } } }),
      c.POST('/shipping/fulfillment-options', { body: fulfillment }),
      c.GET('/orders', { params: { query: { user_id: 'cst_9XK2PL' } } }),
    ]);
    expect(results.map((r) => [r.response.status, r.error])).toEqual([
      [200, undefined],
      [200, undefined],
      [200, undefined],
      [200, undefined],
    ]);
    expect(rec.signIns()).toBe(1);
    const calls = rec.sent.filter((s) => s.path !== '/auth/anonymous');
    // Each call twice: first refused with the stale token, then answered with the new one.
    expect(calls).toHaveLength(8);
    expect(calls.filter((s) => s.auth === `Bearer ${stale}`).map((s) => s.status)).toEqual([401, 401, 401, 401]);
    expect(calls.filter((s) => s.auth !== `Bearer ${stale}`).map((s) => s.status)).toEqual([200, 200, 200, 200]);
    expect(calls.filter((s) => s.method === 'POST').map((s) => JSON.parse(s.body))).toEqual([fulfillment, fulfillment]);
  });

  it('retries a 401 that arrives after the renewal with the new token, without signing in again', async () => {
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    // The variant's 401 is held back until the countries call (refused, renewed, sent again) is done.
    const rec = recorder({ path: '/catalog/products/prd_7Q2K9X/variants/var_4M8T2C', until });
    const c = anonymousClient({ fetch: rec.fetch, accessToken: await foreignToken() });
    const [a, b] = await Promise.all([
      c.GET('/common/countries').finally(release),
      c.GET('/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C' } } }),
    ]);
    expect([a.response.status, b.response.status]).toEqual([200, 200]);
    expect(rec.signIns()).toBe(1);
  });

  it('ends in one 401 when the new token is refused too: one sign-in, each call sent twice, no loop', async () => {
    const rec = recorder();
    let signIns = 0;
    const refused = await foreignToken();
    const c = client({
      fetch: rec.fetch,
      accessToken: await foreignToken(),
      signIn: async () => {
        signIns++;
        return refused;
      },
    });
    const results = await Promise.all([c.GET('/common/countries'), c.GET('/common/countries'), c.POST('/shipping/fulfillment-options', { body: fulfillment })]);
    expect(results.map((r) => [r.response.status, r.error?.content.error.code])).toEqual([
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [401, 'unauthorized'],
    ]);
    expect(signIns).toBe(1);
    expect(rec.sent).toHaveLength(6);
  });

  it("leaves the API key's own 401 to the caller: no sign-in again, no retry", async () => {
    const rec = recorder();
    const c = anonymousClient({ fetch: rec.fetch, apiKey: 'sk_not_this_store' });
    const error = await c.GET('/common/countries').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorefrontApiError);
    expect([(error as StorefrontApiError).status, (error as StorefrontApiError).operationId, (error as StorefrontApiError).code]).toEqual([401, 'createAnonymousUser', 'unauthorized']);
    expect(rec.sent.map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual(['POST /auth/anonymous 401']);
  });

  it('rejects the calls with the error of a sign-in that fails', async () => {
    const rec = recorder();
    const c = client({ fetch: rec.fetch, signIn: () => Promise.reject(new Error('token endpoint unreachable')) });
    await expect(c.GET('/common/countries')).rejects.toThrow('token endpoint unreachable');
    expect(rec.sent).toEqual([]);
  });

  it('without signIn, a refused token is the caller\'s 401', async () => {
    const rec = recorder();
    const c = client({ fetch: rec.fetch, accessToken: await foreignToken() });
    const { response, error } = await c.GET('/common/countries');
    expect([response.status, error?.content.error.code, rec.sent.length]).toEqual([401, 'unauthorized', 1]);
  });
});

describe('tokenSession on a plain openapi-fetch client', () => {
  it('puts the token on bearer calls only, keeps it in the given store, and renews it on 401', async () => {
    const rec = recorder();
    let kept: string | undefined = await foreignToken();
    const stored: string[] = [];
    const plain = createClient<StorefrontClientPaths>({ baseUrl: storefrontBaseUrl(workbench.url, STORE), fetch: rec.fetch });
    plain.use(
      tokenSession({
        signIn: async () => {
          const { data } = await plain.POST('/auth/anonymous', { headers: { 'X-Api-Key': API_KEY } });
          return data!.content.access_token;
        },
        store: { get: () => kept, set: (t) => stored.push((kept = t)) },
      }),
    );
    const { response } = await plain.GET('/common/countries');
    expect(response.status).toBe(200);
    expect(stored).toHaveLength(1);
    expect(rec.sent.map((s) => `${s.method} ${s.path} ${s.status} ${s.auth === null ? 'no-auth' : s.auth === `Bearer ${stored[0]}` ? 'new' : 'stale'}`)).toEqual([
      'GET /common/countries 401 stale',
      'POST /auth/anonymous 200 no-auth',
      'GET /common/countries 200 new',
    ]);
  });
});
