// Prism's controls keep working through the front (Prefer code/example/dynamic, the --dynamic mode),
// and the cached default answers are byte-for-byte what Prism's engine answers itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { ENDPOINTS, apiKey, bearer, call, json, loadContract, startMock, storefront, type Contract } from './helpers.js';

let server: MockServer;
let viaPrism: MockServer;
let dynamic: MockServer;
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
  [server, viaPrism, dynamic] = await Promise.all([startMock(), startMock({ cacheDefaults: false }), startMock({ dynamic: true })]);
});
afterAll(() => Promise.all([server, viaPrism, dynamic].map((s) => s?.close())));

const credsFor = (e: (typeof ENDPOINTS)[number]) => ({ ...(e.auth === 'apiKey' ? apiKey() : bearer()), ...(e.body ? json : {}) });
const bodyFor = (e: (typeof ENDPOINTS)[number]) => (e.body ? JSON.stringify(contract.requestExample(e.method, e.template)) : undefined);

describe('cached defaults equal Prism', () => {
  it.each(ENDPOINTS)('$method $template', async (e) => {
    const init = { headers: credsFor(e), body: bodyFor(e) };
    const [cached, prism] = await Promise.all([call(storefront(server), e.method, e.path, init), call(storefront(viaPrism), e.method, e.path, init)]);
    expect(cached.status).toBe(prism.status);
    expect(cached.text).toBe(prism.text);
  });
});

describe('Prefer header', () => {
  it.each([
    ['code=404 on a cart', 'GET', '/pos/carts/{id}', '/pos/carts/c1', 'code=404', 404],
    ['code=401 on products', 'GET', '/catalog/products', '/catalog/products', 'code=401', 401],
    ['code=400 on orders', 'GET', '/orders', '/orders?user_id=u', 'code=400', 400],
  ])('%s answers that documented example', async (_n, method, template, path, prefer, status) => {
    const reply = await call(storefront(server), method, path, { headers: { ...bearer(), prefer } });
    expect(reply.status).toBe(status);
    expect(reply.json).toEqual(contract.firstExample(method, template, status));
    expect(contract.check(method, template, status, reply.json)).toEqual([]);
  });

  it('example=<name> picks that named example', async () => {
    const template = '/pos/auth/login/phone';
    const examples = contract.operation('POST', template).responses['200'].content['application/json'].examples;
    const [first, second] = Object.keys(examples);
    expect(second).toBeDefined();
    const body = JSON.stringify(contract.requestExample('POST', template));
    const reply = await call(storefront(server), 'POST', template, { headers: { ...apiKey(), ...json, prefer: `example=${second}` }, body });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual(examples[second].value);
    expect(reply.json).not.toEqual(examples[first].value);
  });

  it('code and example together', async () => {
    const reply = await call(storefront(server), 'GET', '/catalog/products', { headers: { ...bearer(), prefer: 'code=401, example=ListProductsUnauthorized' } });
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual(contract.firstExample('GET', '/catalog/products', 401));
  });

  it('dynamic=true builds a body from the schema', async () => {
    const reply = await call(storefront(server), 'GET', '/common/countries', { headers: { ...bearer(), prefer: 'dynamic=true' } });
    expect(reply.status).toBe(200);
    expect(reply.json).not.toEqual(contract.firstExample('GET', '/common/countries', 200));
    expect(contract.check('GET', '/common/countries', 200, reply.json)).toEqual([]);
  });

  it.each([
    ['a code that is not a status', 'code=abc'],
    ['an undocumented code', 'code=418'],
    ['an unknown example', 'example=NoSuchExample'],
    ['dynamic not boolean', 'dynamic=yes'],
  ])('%s gets a 400 envelope naming Prefer', async (_n, prefer) => {
    const reply = await call(storefront(server), 'GET', '/catalog/products', { headers: { ...bearer(), prefer } });
    expect(reply.status).toBe(400);
    expect(reply.json.success).toBe(false);
    expect(reply.json.content.error.details[0].name).toBe('Prefer');
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('the __code query control works when no Prefer header is sent', async () => {
    const reply = await call(storefront(server), 'GET', '/pos/carts/c1?__code=404', { headers: bearer() });
    expect(reply.status).toBe(404);
  });

  it('security is still enforced before any control', async () => {
    const reply = await call(storefront(server), 'GET', '/catalog/products', { headers: { prefer: 'code=200' } });
    expect(reply.status).toBe(401);
  });
});

describe('--dynamic mode', () => {
  it('answers schema-valid generated bodies instead of the examples', async () => {
    const reply = await call(storefront(dynamic), 'GET', '/common/countries', { headers: bearer() });
    expect(reply.status).toBe(200);
    expect(reply.json).not.toEqual(contract.firstExample('GET', '/common/countries', 200));
    expect(contract.check('GET', '/common/countries', 200, reply.json)).toEqual([]);
  });

  it('Prefer: dynamic=false brings the named example back', async () => {
    const reply = await call(storefront(dynamic), 'GET', '/common/countries', { headers: { ...bearer(), prefer: 'dynamic=false' } });
    expect(reply.json).toEqual(contract.firstExample('GET', '/common/countries', 200));
  });
});

describe('content negotiation', () => {
  it('Accept: application/json is served', async () => {
    const reply = await call(storefront(server), 'GET', '/common/countries', { headers: { ...bearer(), accept: 'application/json' } });
    expect(reply.status).toBe(200);
  });

  it('Accept that excludes JSON gets an envelope, not problem+json', async () => {
    const reply = await call(storefront(server), 'GET', '/common/countries', { headers: { ...bearer(), accept: 'application/xml' } });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.json.success).toBe(false);
  });
});
