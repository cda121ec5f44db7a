// The contract stays the law: every answer the sandbox gives, over its whole seeded world, validates
// against the spec (validateResponse, the generated validators) for its operation and status. The walk
// covers every product's every variant (with and without inventory, under each customer group), every
// cart (the cart, its coupons, its fulfillment options for several pincodes), every page of every list
// under filters and sorts, every customer's cards and every user's orders, and each documented status of
// each operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storefrontOperations } from '../../generated/operations/storefront.js';
import { validateResponse } from '../../src/validators/index.js';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, backOffice, http, KEY, q, startSandbox, storefront, type Reply } from './helpers.js';

let wb: Workbench;
let auth: Record<string, string>;
let world: any;
let products: any[];
const covered = new Set<string>();
let answers = 0;

beforeAll(async () => {
  wb = await startSandbox();
  ({ auth } = await anonymous(wb));
  world = (await http(`${backOffice(wb)}/world`)).json.content;
  products = (await http(`${backOffice(wb)}/world/products`)).json;
});
afterAll(async () => wb?.close());

/** Calls and judges one answer; remembers which documented statuses were exercised. */
async function judged(operationId: string, method: string, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Reply> {
  const r = await http(`${storefront(wb)}${path}`, method, { ...init, headers: init.headers ?? auth });
  const verdict = validateResponse('storefront', operationId, r.status, r.json);
  if (!verdict.valid) throw new Error(`${operationId} ${method} ${path} -> ${r.status} breaks the contract: ${JSON.stringify(verdict.errors.slice(0, 3))}`);
  covered.add(`${operationId} ${r.status}`);
  answers++;
  return r;
}

async function inBatches<T>(items: readonly T[], size: number, each: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(each));
}

/** Follows next_page from page 1 to the end; checks the pages tile the set exactly once. */
async function walkPages(operationId: string, path: string, itemsKey: string, idOf: (x: any) => string, headers = auth): Promise<string[]> {
  const seen: string[] = [];
  let page: number | null = 1;
  let total = -1;
  while (page !== null) {
    const r = await judged(operationId, 'GET', `${path}${path.includes('?') ? '&' : '?'}page=${page}`, { headers });
    expect(r.status).toBe(200);
    const { pagination } = r.json.content;
    total = pagination.total_records;
    expect(pagination.previous_page).toBe(page === 1 ? null : page - 1);
    seen.push(...r.json.content[itemsKey].map(idOf));
    page = pagination.next_page;
  }
  expect(seen).toHaveLength(total);
  expect(new Set(seen).size).toBe(seen.length);
  return seen;
}

describe('walking the whole seeded world, every answer validates against the spec', () => {
  it('every variant of every product, with and without inventory, under each customer group', async () => {
    const groups = [undefined, ...world.customer_groups.map((g: any) => g.id), 'cgrp_not_a_group'];
    const calls = products.flatMap((p) => p.variants.flatMap((v: any, i: number) => [
      { p, v, inventory: true, group: undefined },
      { p, v, inventory: false, group: groups[(i + p.variants.length) % groups.length] },
    ]));
    expect(calls.length).toBeGreaterThan(200);
    await inBatches(calls, 16, async ({ p, v, inventory, group }) => {
      const r = await judged('getVariant', 'GET', `/catalog/products/${p.id}/variants/${v.id}${inventory ? '?inventory=true' : '?inventory=false'}`, { headers: { ...auth, ...(group ? { 'x-customer-group-id': group } : {}) } });
      expect(r.status).toBe(200);
      expect(r.json.content.variant.id).toBe(v.id);
      expect('inventory' in r.json.content.variant).toBe(inventory);
    });
  });

  it('every cart, its coupons and its fulfillment options for several pincodes', async () => {
    const carts = world.carts.map((c: any) => c.id);
    expect(carts.length).toBeGreaterThanOrEqual(8);
    for (const id of carts) {
      expect((await judged('getPosCart', 'GET', `/pos/carts/${id}`)).status).toBe(200);
      expect((await judged('evaluateCartCoupons', 'GET', `/pos/carts/${id}/evaluate-coupons`)).status).toBe(200);
      for (const pincode of ['560038', '560001', '400050', '110001', '999999', 'abc']) {
        expect((await judged('getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: { ...auth }, body: { cart_id: id, delivery_pincode: pincode } })).status).toBe(200);
      }
    }
  });

  it('every page of the catalog, unfiltered and per category (id and slug), in several sorts, with inventory and groups', async () => {
    const all = await walkPages('listProducts', '/catalog/products?limit=7', 'products', (p) => p.id);
    expect(new Set(all)).toEqual(new Set(products.filter((p) => p.active).map((p) => p.id)));
    for (const sort of [{ selling_price: 'asc' }, { name: 'desc' }, { reviews_count: 'desc', name: 'asc' }, { rating: 'desc' }, { listing_price: 'asc', sku: 'desc' }]) {
      const sorted = await walkPages('listProducts', `/catalog/products${q({ limit: 25, sort_by: JSON.stringify(sort) })}`, 'products', (p) => p.id);
      expect(new Set(sorted)).toEqual(new Set(all));
    }
    for (const c of world.categories) {
      const byId = await walkPages('listProducts', `/catalog/products${q({ limit: 5, category_id: c.id, inventory: true })}`, 'products', (p) => p.id);
      expect(byId).toHaveLength(c.product_count);
      const bySlug = await walkPages('listProducts', `/catalog/products${q({ limit: 5, category_slug: c.slug, sort_by: '{"selling_price":"desc"}' })}`, 'products', (p) => p.id);
      expect(new Set(bySlug)).toEqual(new Set(byId));
    }
    for (const g of world.customer_groups) {
      const priced = await walkPages('listProducts', `/catalog/products${q({ limit: 50, sort_by: '{"selling_price":"asc"}' })}`, 'products', (p) => p.id, { ...auth, 'x-customer-group-id': g.id });
      expect(new Set(priced)).toEqual(new Set(all));
    }
    const past = await judged('listProducts', 'GET', `/catalog/products${q({ page: 99, limit: 10 })}`);
    expect(past.json.content.products).toEqual([]);
    expect(past.json.content.pagination.next_page).toBeNull();
  });

  it('similar products of every product, paged and sorted', async () => {
    await inBatches(products, 8, async (p) => {
      expect((await judged('listSimilarProducts', 'GET', `/pos/catalog/products/similar${q({ product_id: p.id, limit: 5 })}`)).status).toBe(200);
    });
    await walkPages('listSimilarProducts', `/pos/catalog/products/similar${q({ limit: 9 })}`, 'products', (p) => p.product_id);
    await walkPages('listSimilarProducts', `/pos/catalog/products/similar${q({ limit: 4, product_id: ['prd_7Q2K9X', 'prd_5T9W3N'], sort_by: '{"selling_price":"desc","product_name":"asc"}' })}`, 'products', (p) => p.product_id);
  });

  it('every customer\'s cards and every user\'s orders, filtered by status and sorted', async () => {
    for (const c of world.customers) {
      const r = await judged('listCustomerCards', 'GET', `/customers/${c.id}/cards`);
      expect(r.json.content.cards).toHaveLength(c.cards);
    }
    const statuses = Object.keys(world.order_statuses);
    for (const { user_id, orders } of world.users_with_orders) {
      const seen = await walkPages('listOrders', `/orders${q({ user_id, limit: 2 })}`, 'orders', (o) => o.order_number);
      expect(seen).toHaveLength(orders);
      await walkPages('listOrders', `/orders${q({ user_id, limit: 3, status: statuses.slice(0, 3), sort_by: '{"grand_total":"desc","order_date":"asc"}' })}`, 'orders', (o) => o.order_number);
    }
    const nobody = await judged('listOrders', 'GET', `/orders${q({ user_id: 'usr_nobody' })}`);
    expect(nobody.json.content).toEqual({ orders: [], pagination: { total_records: 0, total_pages: 0, limit: 20, next_page: null, previous_page: null } });
    await judged('listCountries', 'GET', '/common/countries');
  });

  it('every documented status of every operation is produced, and validates', async () => {
    const bad = { authorization: 'Bearer sbx_at_never_issued_by_this_sandbox' };
    const big = `{"padding":"${'x'.repeat(2 * 1024 * 1024)}"}`;
    const json = { ...auth, 'content-type': 'application/json' };
    const text = { ...auth, 'content-type': 'text/plain' };
    const login = { location_id: 'loc_BLR_IND', phone: '9876543210', country_code: '+91' };
    const customer = { business: { business_type: 'salon', name: 'Walk Salon', pan_number: 'AAKFW1234M', gstin: '29AAKFW1234M1Z3' }, address: { first_name: 'Walk', last_name: 'Er', country_code: '+91', phone: '9000000000', email: 'walk@example.in' } };
    const cases: Array<[string, string, string, { headers?: Record<string, string>; body?: unknown }]> = [
      ['createAnonymousUser', 'POST', '/auth/anonymous', { headers: KEY }],
      ['createAnonymousUser', 'POST', '/auth/anonymous', { headers: {} }],
      ['startPosPhoneLogin', 'POST', '/pos/auth/login/phone?debug_mode=true', { headers: KEY, body: login }],
      ['startPosPhoneLogin', 'POST', '/pos/auth/login/phone', { headers: KEY, body: { ...login, country_code: '91' } }],
      ['startPosPhoneLogin', 'POST', '/pos/auth/login/phone', { headers: {}, body: login }],
      // The sandbox has no key without scope `storefront`: 403 is the spec's example, asked for with Prefer.
      ['startPosPhoneLogin', 'POST', '/pos/auth/login/phone', { headers: { ...KEY, prefer: 'code=403' }, body: login }],
      ['startPosPhoneLogin', 'POST', '/pos/auth/login/phone', { headers: { ...KEY, 'content-type': 'application/json' }, body: big }],
      ['startPosPhoneLogin', 'POST', '/pos/auth/login/phone', { headers: { ...KEY, 'content-type': 'text/plain' }, body: 'phone=1' }],
      ['getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: auth, body: { delivery_pincode: '560038' } }],
      ['getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: bad, body: { cart_id: 'crt_8N2F6Q', delivery_pincode: '560038' } }],
      ['getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: auth, body: { cart_id: 'crt_nope', delivery_pincode: '560038' } }],
      ['getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: json, body: big }],
      ['getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: text, body: 'cart_id=1' }],
      ['getPosCart', 'GET', '/pos/carts/crt_nope', {}],
      ['getPosCart', 'GET', '/pos/carts/crt_8N2F6Q', { headers: bad }],
      ['getVariant', 'GET', '/catalog/products/prd_7Q2K9X/variants/var_4M8T2C?inventory=maybe', {}],
      ['getVariant', 'GET', '/catalog/products/prd_7Q2K9X/variants/var_4M8T2C', { headers: bad }],
      ['getVariant', 'GET', '/catalog/products/prd_nope/variants/var_4M8T2C', {}],
      ['getVariant', 'GET', '/catalog/products/prd_3H6V1B/variants/var_4M8T2C', {}],
      ['listCustomerCards', 'GET', '/customers/cst_nope/cards', {}],
      ['listCustomerCards', 'GET', '/customers/cst_9XK2PL/cards', { headers: bad }],
      ['evaluateCartCoupons', 'GET', '/pos/carts/crt_nope/evaluate-coupons', {}],
      ['evaluateCartCoupons', 'GET', '/pos/carts/crt_8N2F6Q/evaluate-coupons', { headers: bad }],
      ['listCountries', 'GET', '/common/countries', { headers: bad }],
      ['listProducts', 'GET', '/catalog/products?page=0', {}],
      ['listProducts', 'GET', `/catalog/products${q({ sort_by: '{"colour":"asc"}' })}`, {}],
      ['listProducts', 'GET', '/catalog/products', { headers: bad }],
      ['listSimilarProducts', 'GET', '/pos/catalog/products/similar?page=0', {}],
      ['listSimilarProducts', 'GET', '/pos/catalog/products/similar', { headers: bad }],
      ['listOrders', 'GET', '/orders', {}],
      ['listOrders', 'GET', '/orders?user_id=cst_9XK2PL', { headers: bad }],
      ['createCustomer', 'POST', '/customers', { headers: auth, body: customer }],
      ['createCustomer', 'POST', '/customers', { headers: auth, body: { business: {}, address: {} } }],
      ['createCustomer', 'POST', '/customers', { headers: bad, body: customer }],
      ['createCustomer', 'POST', '/customers', { headers: json, body: big }],
      ['createCustomer', 'POST', '/customers', { headers: text, body: 'name=x' }],
    ];
    for (const [op, method, path, init] of cases) await judged(op, method, path, init);
    const documented = Object.values(storefrontOperations).flatMap((op) => op.responses.map((status) => `${op.operationId} ${status}`));
    expect(documented.filter((pair) => !covered.has(pair))).toEqual([]);
    expect(answers).toBeGreaterThan(800);
  });
});
