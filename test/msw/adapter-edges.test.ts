// Two edges of the MSW adapter, both found by running the suite through MSW in Node (`npm run test:adapters`):
// - it hands every request under its base URL to the engine, whatever its path: one with malformed
//   percent-encoding gets the engine's 400 envelope, as on HTTP (test/sandbox/unhappy.test.ts), not MSW's
//   own 500 with a stack trace (the handler's `${base}/*` pattern made MSW decode the path while matching);
// - close() ends a request waiting out a delay (a network error, as a closed server's socket), instead of
//   leaving it to hang for the delay's length.
// And what a user's probe found next (a helper trying the adapter as a front-end developer and a hostile
// caller): a write in the pipeline at close() or reset() answered 500 (the store closed under it); a
// node:http client's Host (its base URL's name) was refused on the back office in process, where no DNS
// can be rebound; a lower-case method and headers over 16 KB reached the engine in process, where a real
// server refuses them.
import { setupServer } from 'msw/node';
import https from 'node:https';
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

  it('close() and reset() let a write already in the pipeline finish (it answered 500: the store closed under it)', async () => {
    const own = await createSandboxHandlers({ baseUrl: 'http://draining.test', webhooks: false });
    server.use(...own.handlers);
    const key = { 'x-api-key': own.apiKey() };
    const url = 'http://draining.test/api/v1/demo-store/storefront';
    const signIn = async () => ((await (await fetch(`${url}/auth/anonymous`, { method: 'POST', headers: key })).json()) as { content: { access_token: string } }).content.access_token;
    let token = await signIn();
    /** A createCustomer whose body arrives slowly, as a streamed upload; `during` runs while it is read. */
    const slowWrite = async (n: number, during: () => Promise<void>) => {
      const body = JSON.stringify({
        business: { business_type: 'retailer', name: `Slow Stores ${n}`, pan_number: 'AAAPK1234C', gstin: '27AAAPK1234C1Z5' },
        address: { first_name: 'Asha', last_name: 'Kumar', country_code: '+91', phone: '9876543210', email: `slow${n}@example.com`, address_line1: '12 MG Road', city: 'Mumbai', state: 'Maharashtra', country: 'India', pincode: '400001' },
      });
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((r) => setTimeout(r, 40));
          if (sent >= body.length) return controller.close();
          controller.enqueue(new TextEncoder().encode(body.slice(sent, sent + 20)));
          sent += 20;
        },
      });
      const answer = fetch(`${url}/customers`, { method: 'POST', headers: { ...key, authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit).then(async (r) => `${r.status} ${((await r.json()) as { message: string }).message}`);
      await new Promise((r) => setTimeout(r, 100));
      await during();
      return answer;
    };
    const created = await slowWrite(1, () => own.reset());
    expect(created, 'the write reset() found in the pipeline').toMatch(/^201 /);
    expect((await fetch(`${url}/common/countries`, { headers: { authorization: 'Bearer nope' } })).status, 'the fresh engine answers').toBe(401);
    token = await signIn(); // the fresh engine forgot the tokens issued before reset()
    expect(await slowWrite(2, () => own.close()), 'the write close() found in the pipeline').toMatch(/^201 /);
    await expect(own.reset(), 'reset() after close()').rejects.toThrow(/closed/);
  });

  it('refuses what a server refuses before its engine: a lower-case method fetch does not normalize (400), headers over 16 KB (431)', async () => {
    const base = `${BASE}/api/v1/demo-store/storefront/common/countries`;
    const lower = await fetch(base, { method: 'patch' });
    const body = (await lower.json()) as { message: string; content: { error: { code: string } } };
    expect([lower.status, body.content.error.code]).toEqual([400, 'invalid_parameter']);
    expect(body.message).toContain('send "PATCH"');
    expect((await fetch(base, { method: 'PATCH' })).status, 'the same method in capitals reaches the engine: 405').toBe(405);
    const big = (n: number) => fetch(base, { headers: { authorization: 'Bearer nope', 'x-padding': 'a'.repeat(n) } }).then((r) => r.status);
    expect(await big(17 * 1024)).toBe(431);
    expect(await big(15 * 1024), 'under the limit: the engine answers (an unknown token)').toBe(401);
  });

  it("a node:http client's Host (its base URL's name) does not shut it out of the back office in process; a foreign page's Origin still does", async () => {
    const get = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        // https.request read at call time: MSW patches the module's function when the server listens.
        const req = https.request('https://shop.test/backend/__simulator/stores/demo-store/keys', { headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await get({}), 'node:http sends Host: shop.test').toBe(200);
    expect(await get({ origin: 'https://evil.example' })).toBe(403);
  });

  it('leaves the base itself and other prefixes to onUnhandledRequest', async () => {
    await expect(fetch('https://shop.test/backendx/api/v1/demo-store/storefront/common/countries')).rejects.toThrow();
    await expect(fetch('https://shop.test/api/v1/demo-store/storefront/common/countries')).rejects.toThrow();
  });
});
