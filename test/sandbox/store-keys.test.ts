// The sandbox's store API keys (workbench/sandbox/keys.ts): each store opens with its own test key,
// derived from the seed (the same on every run), given by the back office; a key of another store, a
// made-up key and the certifier's "API key of no store" get the contract's 401 with its challenge,
// whoever answers (a `Prefer` control included). --any-api-key (apiKeyMode 'any') and --api-key (fixed
// keys) keep the other two ways of running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_API_KEY } from '../../conformance/rest/generate/request.js';
import { sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { backOffice, call, http, keyOf, startSandbox } from './helpers.js';

let wb: Workbench;
beforeAll(async () => {
  wb = await startSandbox({ webhooks: false });
});
afterAll(async () => wb?.close());

const signIn = (w: Workbench, headers: Record<string, string>, store?: string) => call(w, 'createAnonymousUser', 'POST', '/auth/anonymous', { headers, store });

describe('store API keys of the sandbox', () => {
  it('are test-mode keys: one per store, stable for a seed, another seed another key', () => {
    const demo = sandboxApiKey('demo-store');
    expect(demo).toMatch(/^sk_test_[0-9a-f]{24}$/);
    expect(sandboxApiKey('demo-store', { seed: 1 })).toBe(demo);
    expect(sandboxApiKey('demo-store', { seed: '1' })).toBe(demo);
    expect(sandboxApiKey('other-store')).not.toBe(demo);
    expect(sandboxApiKey('demo-store', { seed: 7 })).not.toBe(demo);
  });

  it("open only their own store; a made-up key, another store's key and the certifier's unknown key get the 401 envelope with the ApiKey challenge", async () => {
    expect((await signIn(wb, keyOf('demo-store'))).status).toBe(200);
    expect((await signIn(wb, keyOf('other-store'), 'other-store')).status).toBe(200);
    const posLogin = await call(wb, 'startPosPhoneLogin', 'POST', '/pos/auth/login/phone', { headers: keyOf('demo-store'), body: { location_id: 'loc_BLR_IND', phone: '9876543210', country_code: '+91' } });
    expect(posLogin.status).toBe(200);
    for (const [what, key, store] of [
      ['a made-up key', 'sk_test_made_up_key', 'demo-store'],
      ["another store's key", sandboxApiKey('other-store'), 'demo-store'],
      ["demo-store's key on another store", sandboxApiKey('demo-store'), 'other-store'],
      ["another seed's key", sandboxApiKey('demo-store', { seed: 7 }), 'demo-store'],
      ['the certifier\'s "API key of no store"', UNKNOWN_API_KEY, 'demo-store'],
    ] as const) {
      const r = await signIn(wb, { 'x-api-key': key }, store);
      expect(r.status, what).toBe(401);
      expect(r.headers['www-authenticate'], what).toBe('ApiKey header="X-Api-Key"');
      expect(r.json.content.error, what).toMatchObject({ code: 'unauthorized', details: [{ location: 'header', name: 'X-Api-Key' }] });
      expect(r.json.message, what).toContain(`not the key of store "${store}"`);
      expect(r.text, what).not.toContain(sandboxApiKey(store));
    }
    // Security is judged before a `Prefer` control hands the request to the spec's examples.
    const controlled = await http(`${wb.url}/api/v1/demo-store/storefront/pos/auth/login/phone`, 'POST', { headers: { 'x-api-key': 'sk_made_up', prefer: 'code=403' }, body: { location_id: 'loc_BLR_IND', phone: '9876543210', country_code: '+91' } });
    expect(controlled.status).toBe(401);
  });

  it('are given by the back office for any store (outside the contract)', async () => {
    for (const store of ['demo-store', 'shop-42']) {
      const r = await http(`${backOffice(wb, store)}/keys`);
      expect(r.status).toBe(200);
      expect(r.headers['x-simulator']).toBe('outside-contract');
      expect(r.json.content).toMatchObject({ store_id: store, seed: 1, api_key: sandboxApiKey(store), accepts: 'per-store' });
    }
  });

  it('follow the seed: a sandbox started with --seed 7 opens with the seed-7 key only', async () => {
    const seven = await startSandbox({ webhooks: false, sandbox: { seed: 7 } });
    try {
      expect((await http(`${backOffice(seven)}/keys`)).json.content.api_key).toBe(sandboxApiKey('demo-store', { seed: 7 }));
      expect((await signIn(seven, keyOf('demo-store', 7))).status).toBe(200);
      expect((await signIn(seven, keyOf('demo-store'))).status).toBe(401);
    } finally {
      await seven.close();
    }
  });

  it("apiKeyMode 'any' (--any-api-key) accepts any well-formed key; fixed keys (--api-key) open every store and hide the store key", async () => {
    const any = await startSandbox({ webhooks: false, sandbox: { apiKeyMode: 'any' } });
    const fixed = await startSandbox({ webhooks: false, apiKeys: ['sk_ci_secret_1'] });
    try {
      expect((await signIn(any, { 'x-api-key': 'whatever-key-1' })).status).toBe(200);
      expect((await signIn(any, { 'x-api-key': 'not a key' })).status).toBe(401);
      expect((await http(`${backOffice(any)}/keys`)).json.content).toMatchObject({ api_key: sandboxApiKey('demo-store'), accepts: 'any' });
      expect((await signIn(fixed, { 'x-api-key': 'sk_ci_secret_1' }, 'shop-9')).status).toBe(200);
      expect((await signIn(fixed, keyOf('demo-store'))).status).toBe(401);
      const keys = await http(`${backOffice(fixed)}/keys`);
      expect(keys.json.content).toMatchObject({ api_key: null, accepts: 'fixed' });
      expect(keys.text).not.toContain('sk_ci_secret_1');
    } finally {
      await Promise.all([any.close(), fixed.close()]);
    }
  });
});
