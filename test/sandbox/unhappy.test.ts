// What users send that they should not: malformed sort_by, unknown ids, path tricks, and keys that name
// prototypes (`__proto__`, `constructor`, `prototype`) in bodies, store ids, sort fields and headers.
// Every refusal is the contract's envelope; nothing reaches an object path (the server runs in this
// process, so a polluted prototype would show here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, backOffice, call, http, q, startSandbox, storefront } from './helpers.js';

let wb: Workbench;
let auth: Record<string, string>;

beforeAll(async () => {
  wb = await startSandbox({ webhooks: false });
  ({ auth } = await anonymous(wb));
});
afterAll(async () => wb?.close());

const clean = () => {
  for (const key of ['polluted', 'isAdmin', 'asc', 'desc']) expect((Object.prototype as Record<string, unknown>)[key], key).toBeUndefined();
};

describe('malformed sort_by', () => {
  it.each([
    ['not JSON', 'price up', /must be JSON text/],
    ['an array', '["selling_price"]', /must be object/],
    ['a bad direction', '{"selling_price":"up"}', /must be one of "asc", "desc"/],
    ['an unknown field', '{"colour":"asc"}', /unknown field "colour" \(allowed: name, slug, sku, id, selling_price/],
    ['__proto__ as a field', '{"__proto__":"asc"}', /unknown field "__proto__"/],
    ['constructor as a field', '{"constructor":"desc"}', /unknown field "constructor"/],
    ['prototype as a field', '{"name":"asc","prototype":"asc"}', /unknown field "prototype"/],
  ])('%s is a 400 naming sort_by', async (_name, sort, message) => {
    const r = await call(wb, 'listProducts', 'GET', `/catalog/products${q({ sort_by: sort })}`, { headers: auth });
    expect(r.status).toBe(400);
    expect(r.json.content.error.code).toBe('invalid_parameter');
    expect(r.json.content.error.details[0]).toMatchObject({ location: 'query', name: 'sort_by' });
    expect(r.json.content.error.details[0].message).toMatch(message);
    clean();
  });

  it('the other lists name their own sortable fields', async () => {
    const orders = await call(wb, 'listOrders', 'GET', `/orders${q({ user_id: 'cst_9XK2PL', sort_by: '{"selling_price":"asc"}' })}`, { headers: auth });
    expect(orders.json.content.error.details[0].message).toMatch(/allowed: order_date/);
    const similar = await call(wb, 'listSimilarProducts', 'GET', `/pos/catalog/products/similar${q({ sort_by: '{"order_date":"asc"}' })}`, { headers: auth });
    expect(similar.json.content.error.details[0].message).toMatch(/allowed: product_name/);
  });
});

describe('unknown ids are 404 envelopes naming the input', () => {
  it.each([
    ['getPosCart', 'GET', '/pos/carts/crt_NOPE00', 'path', 'id'],
    ['evaluateCartCoupons', 'GET', '/pos/carts/crt_NOPE00/evaluate-coupons', 'path', 'id'],
    ['getVariant', 'GET', '/catalog/products/prd_NOPE00/variants/var_4M8T2C', 'path', 'product_id'],
    ['getVariant', 'GET', '/catalog/products/prd_7Q2K9X/variants/var_NOPE00', 'path', 'variant_id'],
    ['getVariant', 'GET', '/catalog/products/prd_7Q2K9X/variants/var_3H6V1C', 'path', 'variant_id'],
    ['listCustomerCards', 'GET', '/customers/cst_NOPE00/cards', 'path', 'customer_id'],
    ['getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', 'body', 'cart_id'],
  ])('%s %s %s', async (op, method, path, location, name) => {
    const r = await call(wb, op, method, path, { headers: auth, body: method === 'POST' ? { cart_id: 'crt_NOPE00', delivery_pincode: '560038' } : undefined });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ success: false, content: { error: { code: 'not_found', details: [{ location, name }] } } });
  });

  it('ids that are prototype names are just unknown ids', async () => {
    for (const id of ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString']) {
      expect((await call(wb, 'getPosCart', 'GET', `/pos/carts/${id}`, { headers: auth })).status).toBe(404);
      expect((await call(wb, 'listCustomerCards', 'GET', `/customers/${id}/cards`, { headers: auth })).status).toBe(404);
      expect((await call(wb, 'getVariant', 'GET', `/catalog/products/${id}/variants/${id}`, { headers: auth })).status).toBe(404);
      expect((await call(wb, 'listOrders', 'GET', `/orders${q({ user_id: id })}`, { headers: auth })).json.content.orders).toEqual([]);
      expect((await call(wb, 'listProducts', 'GET', `/catalog/products${q({ category_id: id, category_slug: id })}`, { headers: auth })).json.content.products).toEqual([]);
      expect((await call(wb, 'listSimilarProducts', 'GET', `/pos/catalog/products/similar${q({ product_id: id })}`, { headers: auth })).json.content.products).toEqual([]);
    }
    expect((await http(`${backOffice(wb)}/world/__proto__`)).status).toBe(404);
    expect((await http(`${backOffice(wb)}/orders/__proto__/status`, 'POST', { body: { status: 'confirmed' } })).status).toBe(404);
    expect((await http(`${backOffice(wb)}/products/constructor`, 'PATCH', { body: { name: 'x' } })).status).toBe(404);
    clean();
  });
});

describe('path tricks', () => {
  it.each([
    ['an encoded slash inside an id', '/pos/carts/crt_8N2F6Q%2Fevaluate-coupons', 404],
    ['a dot-dot segment', '/pos/carts/..%2F..%2Fcustomers', 404],
    ['an encoded dot-dot as the id', '/pos/carts/%2e%2e', 404],
    ['an empty segment', '/pos/carts//evaluate-coupons', 404],
    ['a doubled slash before the id', '/catalog/products//variants/var_4M8T2C', 404],
    ['bad percent-encoding', '/pos/carts/%E0%A4%A', 400],
  ])('%s gets the envelope (%s), never another resource', async (_name, path, status) => {
    const r = await http(`${storefront(wb)}${path}`, 'GET', { headers: auth });
    expect(r.status).toBe(status);
    expect(r.json.success).toBe(false);
    expect(r.text).not.toContain('"cart":');
  });

  it('a trailing slash reaches the same answer', async () => {
    const plain = await http(`${storefront(wb)}/pos/carts/crt_8N2F6Q`, 'GET', { headers: auth });
    const slash = await http(`${storefront(wb)}/pos/carts/crt_8N2F6Q/`, 'GET', { headers: auth });
    expect(slash.text).toBe(plain.text);
  });

  it('store ids that are prototype names are separate stores', async () => {
    for (const store of ['__proto__', 'constructor', 'prototype']) {
      const me = await anonymous(wb, store);
      const cart = await call(wb, 'getPosCart', 'GET', '/pos/carts/crt_8N2F6Q', { headers: me.auth, store });
      expect(cart.status).toBe(200);
      const world = await http(`${backOffice(wb, store)}/world`);
      expect(world.json.content.store_id).toBe(store);
    }
    clean();
  });
});

describe('prototype keys in bodies and headers', () => {
  const customer = { business: { business_type: 'salon', name: 'P Salon', pan_number: 'AAKFP1234M', gstin: '29AAKFP1234M1Z3' }, address: { first_name: 'P', last_name: 'Q', country_code: '+91', phone: '9833333333', email: 'p@example.in' } };

  it.each([
    ['at the top', `{"__proto__":{"polluted":true},"business":${JSON.stringify(customer.business)},"address":${JSON.stringify(customer.address)}}`, '__proto__'],
    ['in the address', `{"business":${JSON.stringify(customer.business)},"address":{"__proto__":{"isAdmin":true},"first_name":"P","last_name":"Q","country_code":"+91","phone":"1","email":"p@example.in"}}`, 'address.__proto__'],
    ['as constructor.prototype', `{"business":{"constructor":{"prototype":{"polluted":true}},"business_type":"x","name":"n","pan_number":"p","gstin":"g"},"address":${JSON.stringify(customer.address)}}`, 'business.constructor'],
  ])('POST /customers with a __proto__ key %s is a 400 naming it', async (_where, raw, name) => {
    const r = await call(wb, 'createCustomer', 'POST', '/customers', { headers: { ...auth, 'content-type': 'application/json' }, body: raw });
    expect(r.status).toBe(400);
    expect(r.json.content.error.details).toEqual([{ location: 'body', name, message: 'is not an allowed property name' }]);
    clean();
  });

  it('in fulfillment options and in every back-office body', async () => {
    const f = await call(wb, 'getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: { ...auth, 'content-type': 'application/json' }, body: '{"cart_id":"crt_8N2F6Q","delivery_pincode":"560038","__proto__":{"polluted":1}}' });
    expect(f.status).toBe(400);
    for (const [method, path] of [['POST', '/orders'], ['POST', '/orders/SO-2025-001842/status'], ['POST', '/products'], ['PATCH', '/products/prd_7Q2K9X'], ['POST', '/inventory']] as const) {
      const r = await http(`${backOffice(wb)}${path}`, method, { headers: { 'content-type': 'application/json' }, body: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"isAdmin":true}}}' });
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.json.content.error.details[0].name).toBe('__proto__');
    }
    clean();
  });

  it('x-customer-group-id naming a prototype is an unknown group: default pricing', async () => {
    const plain = (await call(wb, 'listProducts', 'GET', '/catalog/products?limit=3', { headers: auth })).text;
    for (const group of ['__proto__', 'constructor', 'toString']) {
      expect((await call(wb, 'listProducts', 'GET', '/catalog/products?limit=3', { headers: { ...auth, 'x-customer-group-id': group } })).text).toBe(plain);
    }
    clean();
  });
});
