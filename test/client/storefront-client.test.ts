// The typed client against the real mock workbench over loopback HTTP: every storefront operation,
// credentials placed per operation, typed data back, typed errors, and strict validation mode.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../workbench/adapters/node-http.js';
import { createStorefrontClient, type StorefrontClient } from '../../src/client/storefront.js';
import { unwrap } from '../../src/client/unwrap.js';
import { MissingCredentialsError, StorefrontApiError } from '../../src/client/errors.js';
import { ContractViolationError } from '../../src/client/errors.js';
import { validateResponse } from '../../src/validators/index.js';
import { lazyValidation } from '../../src/client/middleware.js';

const API_KEY = 'test-store-api-key';
let server: MockServer;
let client: StorefrontClient;
const seen: Array<{ method: string; url: string; apiKey: string | null; auth: string | null }> = [];

const recordingFetch: typeof fetch = async (input, init) => {
  const request = input instanceof Request ? input : new Request(input, init);
  seen.push({ method: request.method, url: request.url, apiKey: request.headers.get('x-api-key'), auth: request.headers.get('authorization') });
  return fetch(request);
};

beforeAll(async () => {
  server = await createMockServer({ port: 0, quiet: true });
  client = createStorefrontClient({ baseUrl: server.url, storeId: 'kesari-naturals', apiKey: API_KEY, validate: 'strict', fetch: recordingFetch });
});
afterAll(async () => server?.close());

describe('createStorefrontClient on the mock workbench', () => {
  it('signs in anonymously with X-Api-Key and keeps the access token', async () => {
    const session = await client.signInAnonymously();
    expect(session.user.is_anonymous).toBe(true);
    expect(session.access_token.length).toBeGreaterThan(0);
    const call = seen.at(-1)!;
    expect(call.url).toBe(`${server.url}/api/v1/kesari-naturals/storefront/auth/anonymous`);
    expect(call.apiKey).toBe(API_KEY);
    expect(call.auth).toBeNull();
  });

  // Every storefront operation, with the credential it must carry.
  const calls: Array<[string, 'apiKey' | 'bearer', (c: StorefrontClient) => Promise<{ data?: unknown; response: Response }>]> = [
    ['startPosPhoneLogin', 'apiKey', (c) => c.POST('/pos/auth/login/phone', { body: { location_id: 'loc_blr_01', phone: '9876543210', country_code: '+91' } })],
    ['getFulfillmentOptions', 'bearer', (c) => c.POST('/shipping/fulfillment-options', { body: { delivery_pincode: '560038', cart_id: 'crt_8N2F6Q' } })],
    ['getPosCart', 'bearer', (c) => c.GET('/pos/carts/{id}', { params: { path: { id: 'crt_8N2F6Q' } } })],
    ['getVariant', 'bearer', (c) => c.GET('/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C' } } })],
    ['listCustomerCards', 'bearer', (c) => c.GET('/customers/{customer_id}/cards', { params: { path: { customer_id: 'cst_9XK2PL' } } })],
    ['evaluateCartCoupons', 'bearer', (c) => c.GET('/pos/carts/{id}/evaluate-coupons', { params: { path: { id: 'crt_8N2F6Q' } } })],
    ['listCountries', 'bearer', (c) => c.GET('/common/countries')],
    ['listProducts', 'bearer', (c) => c.GET('/catalog/products', { params: { query: { page: 1, limit: 2, sort_by: '{"selling_price":"asc"}', category_id: ['cat_lips'] } } })],
    ['listSimilarProducts', 'bearer', (c) => c.GET('/pos/catalog/products/similar', { params: { query: { product_id: ['prd_7Q2K9X'], page: 1, limit: 2 } } })],
    ['listOrders', 'bearer', (c) => c.GET('/orders', { params: { query: { user_id: 'cst_9XK2PL', status: ['draft'] } } })],
    ['createCustomer', 'bearer', (c) => c.POST('/customers', { body: { address: { first_name: 'Priya', last_name: 'Sharma', phone: '9876543210', country_code: '+91', email: 'priya@example.com' }, business: { business_type: 'retailer', name: 'Sharma Beauty Studio', pan_number: 'AABCS1234F', gstin: '29AABCS1234F1Z5' } } })],
  ];

  it.each(calls)('%s: typed data, %s credential, valid against the contract', async (operationId, credential, call) => {
    const { data, response } = await call(client);
    expect(response.ok, `${operationId} answered ${response.status}`).toBe(true);
    expect(data).toBeDefined();
    const status = response.status;
    const check = validateResponse('storefront', operationId, status, data);
    expect(check.valid ? [] : check.errors).toEqual([]);
    const sent = seen.at(-1)!;
    if (credential === 'apiKey') {
      expect(sent.apiKey).toBe(API_KEY);
      expect(sent.auth).toBeNull();
    } else {
      expect(sent.auth).toMatch(/^Bearer .+/);
      expect(sent.apiKey).toBeNull();
    }
  });

  it('returns typed fields (a product list with pagination)', async () => {
    const { content } = await unwrap(client.GET('/catalog/products', { params: { query: { page: 1, limit: 2 } } }), 'listProducts');
    expect(Array.isArray(content.products)).toBe(true);
    expect(typeof content.products[0].pricing.selling_price).toBe('number');
    expect(content.pagination.limit).toBeTypeOf('number');
  });

  // The types take `undefined` for an optional parameter (test/client/optional-parameters.check.ts); on the
  // wire such a filter or header is left out, and the strict client accepts the answer.
  it('item 6: an undefined optional query filter or header is left out of the request', async () => {
    const sent: Request[] = [];
    const watched = createStorefrontClient({
      baseUrl: server.url,
      storeId: 'kesari-naturals',
      apiKey: API_KEY,
      validate: 'strict',
      signIn: () => watched.signInAnonymously().then((s) => s.access_token),
      fetch: async (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        sent.push(request.clone());
        return fetch(request);
      },
    });
    const category: string | undefined = undefined;
    const { content } = await unwrap(
      watched.GET('/catalog/products', { params: { query: { category_id: category, limit: 2, inventory: undefined }, header: { 'x-customer-group-id': undefined } } }),
      'listProducts',
    );
    expect(content.products).toHaveLength(2);
    const list = sent.find((r) => new URL(r.url).pathname.endsWith('/catalog/products'))!;
    expect(new URL(list.url).search).toBe('?limit=2');
    expect(list.headers.has('x-customer-group-id')).toBe(false);
  });

  it('throws the envelope failure as StorefrontApiError through unwrap()', async () => {
    const failing = unwrap(client.GET('/orders', { params: { query: { user_id: 'cst_9XK2PL', page: 0 } } }), 'listOrders');
    await expect(failing).rejects.toBeInstanceOf(StorefrontApiError);
    const error = (await failing.catch((e) => e)) as StorefrontApiError;
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/page/);
    // The typed envelope, kept whole: the code, one item per offending input.
    expect(error.code).toBe('invalid_parameter');
    expect(error.details).toEqual([{ location: 'query', name: 'page', message: expect.any(String) }]);
    expect(error.body).toEqual({ success: false, message: error.message, content: { error: { code: 'invalid_parameter', details: error.details } } });
    expect(error.raw).toBe(error.body);
  });

  it('gives the same envelope as `error` of the call itself', async () => {
    const { error, response } = await client.GET('/catalog/products', { params: { query: { limit: 0 } } });
    expect(response.status).toBe(400);
    expect(error?.content.error.code).toBe('invalid_parameter');
    expect(error?.content.error.details[0]).toMatchObject({ location: 'query', name: 'limit' });
  });

  it('refuses to call a bearer operation without a token, naming the fix', async () => {
    const anonymous = createStorefrontClient({ baseUrl: server.url, storeId: 'kesari-naturals', apiKey: API_KEY });
    await expect(anonymous.GET('/common/countries')).rejects.toThrow(MissingCredentialsError);
    await expect(anonymous.GET('/common/countries')).rejects.toThrow(/signInAnonymously/);
  });

  it('refuses to call an API-key operation without the key', async () => {
    const keyless = createStorefrontClient({ baseUrl: server.url, storeId: 'kesari-naturals', accessToken: 'some-token' });
    await expect(keyless.POST('/auth/anonymous')).rejects.toThrow(/storeApiKey/);
  });
});

describe('strict validation mode', () => {
  // A real server that breaks the contract: a product whose id is a number and no pricing.
  const body = { success: true, message: 'ok', content: { products: [{ id: 1 }], pagination: {} } };
  let broken: http.Server;
  let brokenUrl: string;
  beforeAll(async () => {
    broken = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise((r) => broken.close(r)));

  it('throws ContractViolationError when a response breaks the contract', async () => {
    const strict = createStorefrontClient({ baseUrl: brokenUrl, storeId: 's', accessToken: 't', validate: 'strict' });
    const error = await strict.GET('/catalog/products').catch((e) => e);
    expect(error).toBeInstanceOf(ContractViolationError);
    expect((error as ContractViolationError).operationId).toBe('listProducts');
    expect((error as ContractViolationError).issues[0].path).toMatch(/^\/content\/products\/0/);
  });

  it('keeps a failure body that is no envelope as `raw`, with no code and no details', async () => {
    const proxy = http.createServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const lax = createStorefrontClient({ baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, storeId: 's', accessToken: 't' });
      const error = (await unwrap(lax.GET('/common/countries'), 'listCountries').catch((e) => e)) as StorefrontApiError;
      expect(error).toBeInstanceOf(StorefrontApiError);
      expect([error.status, error.body, error.code, error.details, error.raw]).toEqual([502, undefined, undefined, [], '<html><body>Bad gateway</body></html>']);
      expect(error.message).toBe('HTTP 502 from listCountries');
    } finally {
      await new Promise((r) => proxy.close(r));
    }
  });

  it('is off by default: the same response passes through untouched', async () => {
    const lax = createStorefrontClient({ baseUrl: brokenUrl, storeId: 's', accessToken: 't' });
    const { data } = await lax.GET('/catalog/products');
    expect(data).toEqual(body);
  });

  it('checks every response of a strict client, its code loaded once (an import on each response cost about 1 ms)', async () => {
    const strict = createStorefrontClient({ baseUrl: brokenUrl, storeId: 's', accessToken: 't', validate: 'strict' });
    for (let i = 0; i < 3; i++) await expect(strict.GET('/catalog/products')).rejects.toBeInstanceOf(ContractViolationError);
  });
});

describe('lazyValidation (the validation middleware of both clients)', () => {
  const context = { response: new Response('{}') } as Parameters<NonNullable<ReturnType<typeof lazyValidation>['onResponse']>>[0];

  it('loads the checking code on the first response only, and hands it each response with the mode', async () => {
    let loads = 0;
    const seen: string[] = [];
    const middleware = lazyValidation(async () => {
      loads++;
      return async (_context, mode) => {
        seen.push(mode);
        return undefined;
      };
    }, 'warn');
    await Promise.all([middleware.onResponse!(context), middleware.onResponse!(context)]);
    await middleware.onResponse!(context);
    expect([loads, seen]).toEqual([1, ['warn', 'warn', 'warn']]);
  });

  it('tries a failed load again on the next response', async () => {
    let loads = 0;
    const middleware = lazyValidation(async () => {
      if (++loads === 1) throw new Error('chunk failed to load');
      return async () => undefined;
    }, 'strict');
    await expect(middleware.onResponse!(context)).rejects.toThrow('chunk failed to load');
    await expect(middleware.onResponse!(context)).resolves.toBeUndefined();
    await middleware.onResponse!(context);
    expect(loads).toBe(2);
  });
});
