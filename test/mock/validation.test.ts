// Each invalid input of the issue gets the contract's documented status and an ErrorEnvelope that
// names the offending input, never Prism's problem+json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { bearer, apiKey, call, json, loadContract, startMock, storefront, type Contract } from './helpers.js';

let server: MockServer;
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
  server = await startMock();
});
afterAll(() => server?.close());

const sortBy = (v: string) => `sort_by=${encodeURIComponent(v)}`;

interface Case {
  method: string;
  template: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  want: { status: number; code: string; name: string; location: string };
}

const products = '/catalog/products';
const orders = '/orders';
const customers = '/customers';
const fulfillment = '/shipping/fulfillment-options';
const posLogin = '/pos/auth/login/phone';

const cases: Array<[string, Case]> = [
  ['page 0', { method: 'GET', template: products, path: `${products}?page=0`, want: { status: 400, code: 'invalid_parameter', name: 'page', location: 'query' } }],
  ['negative page', { method: 'GET', template: products, path: `${products}?page=-3`, want: { status: 400, code: 'invalid_parameter', name: 'page', location: 'query' } }],
  ['page not a number', { method: 'GET', template: products, path: `${products}?page=first`, want: { status: 400, code: 'invalid_parameter', name: 'page', location: 'query' } }],
  ['limit 0', { method: 'GET', template: products, path: `${products}?limit=0`, want: { status: 400, code: 'invalid_parameter', name: 'limit', location: 'query' } }],
  ['non-integer limit', { method: 'GET', template: products, path: `${products}?limit=2.5`, want: { status: 400, code: 'invalid_parameter', name: 'limit', location: 'query' } }],
  ['limit not a number', { method: 'GET', template: products, path: `${products}?limit=ten`, want: { status: 400, code: 'invalid_parameter', name: 'limit', location: 'query' } }],
  ['empty limit', { method: 'GET', template: products, path: `${products}?limit=`, want: { status: 400, code: 'invalid_parameter', name: 'limit', location: 'query' } }],
  ['limit given twice', { method: 'GET', template: products, path: `${products}?limit=1&limit=2`, want: { status: 400, code: 'invalid_parameter', name: 'limit', location: 'query' } }],
  ['sort_by not JSON', { method: 'GET', template: products, path: `${products}?${sortBy('price:asc')}`, want: { status: 400, code: 'invalid_parameter', name: 'sort_by', location: 'query' } }],
  ['sort_by direction not asc/desc', { method: 'GET', template: products, path: `${products}?${sortBy('{"price":"up"}')}`, want: { status: 400, code: 'invalid_parameter', name: 'sort_by', location: 'query' } }],
  ['sort_by a JSON array', { method: 'GET', template: products, path: `${products}?${sortBy('["price"]')}`, want: { status: 400, code: 'invalid_parameter', name: 'sort_by', location: 'query' } }],
  ['sort_by a JSON string', { method: 'GET', template: products, path: `${products}?${sortBy('"price"')}`, want: { status: 400, code: 'invalid_parameter', name: 'sort_by', location: 'query' } }],
  ['inventory not boolean', { method: 'GET', template: products, path: `${products}?inventory=maybe`, want: { status: 400, code: 'invalid_parameter', name: 'inventory', location: 'query' } }],
  ['orders without user_id', { method: 'GET', template: orders, path: `${orders}?page=1`, want: { status: 400, code: 'invalid_parameter', name: 'user_id', location: 'query' } }],
  ['orders page 0', { method: 'GET', template: orders, path: `${orders}?user_id=u1&page=0`, want: { status: 400, code: 'invalid_parameter', name: 'page', location: 'query' } }],
  ['orders limit 0', { method: 'GET', template: orders, path: `${orders}?user_id=u1&limit=0`, want: { status: 400, code: 'invalid_parameter', name: 'limit', location: 'query' } }],
  ['orders sort_by not JSON', { method: 'GET', template: orders, path: `${orders}?user_id=u1&${sortBy('{oops')}`, want: { status: 400, code: 'invalid_parameter', name: 'sort_by', location: 'query' } }],
  ['similar products limit 0', { method: 'GET', template: '/pos/catalog/products/similar', path: '/pos/catalog/products/similar?limit=0', want: { status: 400, code: 'invalid_parameter', name: 'limit', location: 'query' } }],
  ['variant inventory not boolean', { method: 'GET', template: '/catalog/products/{product_id}/variants/{variant_id}', path: '/catalog/products/p/variants/v?inventory=1', want: { status: 400, code: 'invalid_parameter', name: 'inventory', location: 'query' } }],
  ['malformed JSON body', { method: 'POST', template: customers, path: customers, headers: json, body: '{"business": {', want: { status: 400, code: 'malformed_json', name: '(body)', location: 'body' } }],
  ['body that is not UTF-8', { method: 'POST', template: customers, path: customers, headers: json, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('latin1'), want: { status: 400, code: 'malformed_json', name: '(body)', location: 'body' } }],
  ['wrong content type', { method: 'POST', template: customers, path: customers, headers: { 'content-type': 'text/plain' }, body: '{}', want: { status: 415, code: 'unsupported_media_type', name: 'Content-Type', location: 'header' } }],
  ['form-encoded body', { method: 'POST', template: fulfillment, path: fulfillment, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'cart_id=1', want: { status: 415, code: 'unsupported_media_type', name: 'Content-Type', location: 'header' } }],
  ['no content type', { method: 'POST', template: posLogin, path: posLogin, headers: { ...apiKey() }, body: '{}', want: { status: 415, code: 'unsupported_media_type', name: 'Content-Type', location: 'header' } }],
  ['a non-UTF-8 charset', { method: 'POST', template: customers, path: customers, headers: { 'content-type': 'application/json; charset=iso-8859-1' }, body: '{}', want: { status: 415, code: 'unsupported_media_type', name: 'Content-Type', location: 'header' } }],
  ['customer without business', { method: 'POST', template: customers, path: customers, headers: json, body: JSON.stringify({ address: {} }), want: { status: 400, code: 'invalid_body', name: 'business', location: 'body' } }],
  ['customer body an array', { method: 'POST', template: customers, path: customers, headers: json, body: '[]', want: { status: 400, code: 'invalid_body', name: '(body)', location: 'body' } }],
  ['no body at all', { method: 'POST', template: customers, path: customers, headers: json, want: { status: 400, code: 'invalid_body', name: '(body)', location: 'body' } }],
  ['fulfillment without cart_id', { method: 'POST', template: fulfillment, path: fulfillment, headers: json, body: JSON.stringify({ delivery_pincode: '560001' }), want: { status: 400, code: 'invalid_body', name: 'cart_id', location: 'body' } }],
  ['fulfillment pincode a number', { method: 'POST', template: fulfillment, path: fulfillment, headers: json, body: JSON.stringify({ delivery_pincode: 560001, cart_id: 'c' }), want: { status: 400, code: 'invalid_body', name: 'delivery_pincode', location: 'body' } }],
  ['POS login without phone', { method: 'POST', template: posLogin, path: posLogin, headers: { ...json, ...apiKey() }, body: JSON.stringify({ location_id: 'l', country_code: '+91' }), want: { status: 400, code: 'invalid_body', name: 'phone', location: 'body' } }],
  ['POS login debug_mode not boolean', { method: 'POST', template: posLogin, path: `${posLogin}?debug_mode=yes`, headers: { ...json, ...apiKey() }, body: JSON.stringify({ location_id: 'l', phone: '9', country_code: '+91' }), want: { status: 400, code: 'invalid_parameter', name: 'debug_mode', location: 'query' } }],
];

describe('invalid requests', () => {
  it.each(cases)('%s', async (_name, c) => {
    const headers = { ...(c.template === posLogin ? {} : bearer()), ...c.headers };
    const body = c.body === undefined ? undefined : c.body.startsWith('{\u00ff') ? Buffer.from(c.body, 'latin1') : c.body;
    const reply = await call(storefront(server), c.method, c.path, { headers, body });
    expect(reply.status).toBe(c.want.status);
    // The status is one the operation documents, and the body is its ErrorEnvelope.
    expect(Object.keys(contract.operation(c.method, c.template).responses)).toContain(String(c.want.status));
    expect(contract.check(c.method, c.template, c.want.status, reply.json)).toEqual([]);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.json.content.error.code).toBe(c.want.code);
    expect(reply.json.content.error.details).toContainEqual(expect.objectContaining({ name: c.want.name, location: c.want.location }));
    expect(reply.json.message).toContain(c.want.name === '(body)' ? 'body' : c.want.name);
  });
});

describe('valid edge values are accepted', () => {
  it.each([
    ['page as a decimal number (the contract types page as number)', `${products}?page=1.5`],
    ['an empty sort_by object', `${products}?${sortBy('{}')}`],
    ['several sort fields', `${products}?${sortBy('{"name":"asc","selling_price":"desc"}')}`],
    ['repeated category_id', `${products}?category_id=a&category_id=b&category_slug=lips`],
    ['unknown query parameters', `${products}?utm_source=x`],
    ['a customer group header', `${products}?limit=1`],
  ])('%s', async (_name, path) => {
    const reply = await call(storefront(server), 'GET', path, { headers: { ...bearer(), 'x-customer-group-id': 'grp_1' } });
    expect(reply.status).toBe(200);
  });
});
