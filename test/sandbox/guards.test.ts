// Who a storefront token opens (issue #25, finding 5): a token issued for one store is refused on every
// other store's bearer operations, whoever would answer (the sandbox, or Prism for a `Prefer` control),
// since the pipeline's security step judges it before any control is read; and whose cards, orders and
// carts a token reads (register SF-036): open by default, `--ownership strict` on request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeBytes } from '../helpers/store-files.js';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, backOffice, call, http, startSandbox, storefront, tempDir } from './helpers.js';

let wb: Workbench;

beforeAll(async () => {
  wb = await startSandbox({ webhooks: false });
});
afterAll(async () => wb?.close());

const CUSTOMER = {
  address: { first_name: 'Asha', last_name: 'Rao', country_code: '+91', phone: '9800000001', email: 'asha@example.com' },
  business: { business_type: 'retail', name: 'Rao Stores', pan_number: 'ABCDE1234F', gstin: '29ABCDE1234F1Z5' },
};

// One request per storefront bearer operation (reads and writes, path, query and body inputs).
const BEARER_CALLS: Array<[string, string, string, unknown?]> = [
  ['listCountries', 'GET', '/common/countries'],
  ['listProducts', 'GET', '/catalog/products'],
  ['getVariant', 'GET', '/catalog/products/prd_7Q2K9X/variants/var_4M8T2C'],
  ['listSimilarProducts', 'GET', '/pos/catalog/products/similar'],
  ['getPosCart', 'GET', '/pos/carts/crt_8N2F6Q'],
  ['evaluateCartCoupons', 'GET', '/pos/carts/crt_8N2F6Q/evaluate-coupons'],
  ['getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { cart_id: 'crt_8N2F6Q', delivery_pincode: '560001' }],
  ['listOrders', 'GET', '/orders?user_id=cst_9XK2PL'],
  ['listCustomerCards', 'GET', '/customers/cst_9XK2PL/cards'],
  ['createCustomer', 'POST', '/customers', CUSTOMER],
];

describe("a store's token opens only that store", () => {
  it.each(BEARER_CALLS)('%s: 401 with the envelope and a challenge on another store, with and without Prefer', async (id, method, path, body) => {
    const a = await anonymous(wb, 'store-a');
    const success = id === 'createCustomer' ? 'code=201' : 'code=200';
    for (const prefer of [undefined, success, 'example=ListProductsOk', 'dynamic=true']) {
      const r = await http(`${storefront(wb, 'store-b')}${path}`, method, { headers: { ...a.auth, ...(prefer ? { prefer } : {}) }, body });
      expect(r.status, `${method} ${path} Prefer: ${prefer}`).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.json).toMatchObject({ success: false, content: { error: { code: 'unauthorized', details: [{ location: 'header', name: 'Authorization' }] } } });
      expect(r.json.message).toMatch(/issued for store "store-a"/);
    }
    // On its own store the same token is accepted, by the sandbox and by Prism.
    for (const prefer of [undefined, success]) {
      const r = await http(`${storefront(wb, 'store-a')}${path}`, method, { headers: { ...a.auth, ...(prefer ? { prefer } : {}) }, body });
      expect(r.status, `${method} ${path} Prefer: ${prefer}`).toBeLessThan(300);
    }
  });
});

// Ownership (register SF-036): open by default, `--ownership strict` on request.
describe('who reads a customer\'s cards, orders and carts', () => {
  let strict: Workbench;
  beforeAll(async () => {
    strict = await startSandbox({ webhooks: false, sandbox: { ownership: 'strict' } });
  });
  afterAll(async () => strict?.close());

  const reads = async (w: Workbench, auth: Record<string, string>, customerId: string, cartId: string) => ({
    cards: await call(w, 'listCustomerCards', 'GET', `/customers/${customerId}/cards`, { headers: auth }),
    orders: await call(w, 'listOrders', 'GET', `/orders?user_id=${customerId}`, { headers: auth }),
    cart: await call(w, 'getPosCart', 'GET', `/pos/carts/${cartId}`, { headers: auth }),
    coupons: await call(w, 'evaluateCartCoupons', 'GET', `/pos/carts/${cartId}/evaluate-coupons`, { headers: auth }),
    fulfillment: await call(w, 'getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: auth, body: { cart_id: cartId, delivery_pincode: '560001' } }),
  });
  const owned = async (w: Workbench) => {
    const carts: any[] = (await http(`${backOffice(w)}/world/carts`)).json;
    const cart = carts.find((c) => c.customer_id === 'cst_9XK2PL') ?? carts.find((c) => c.customer_id);
    const guest = carts.find((c) => !c.customer_id);
    return { customerId: cart.customer_id as string, cartId: cart.id as string, guestCartId: guest?.id as string | undefined };
  };

  it('open (the default): any token of the store reads any customer', async () => {
    const { customerId, cartId } = await owned(wb);
    const { auth } = await anonymous(wb);
    const r = await reads(wb, auth, customerId, cartId);
    expect([r.cards.status, r.orders.status, r.cart.status, r.coupons.status, r.fulfillment.status]).toEqual([200, 200, 200, 200, 200]);
    expect(r.orders.json.content.pagination.total_records).toBeGreaterThan(0);
  });

  it('strict: a token bound to no customer sees another customer\'s records as unknown ids', async () => {
    const { customerId, cartId, guestCartId } = await owned(strict);
    const { auth } = await anonymous(strict);
    const r = await reads(strict, auth, customerId, cartId);
    for (const [what, reply] of [['cards', r.cards], ['cart', r.cart], ['coupons', r.coupons], ['fulfillment', r.fulfillment]] as const) {
      expect(reply.status, what).toBe(404);
      expect(reply.json).toMatchObject({ success: false, content: { error: { code: 'not_found' } } });
      expect(reply.json.content.error.details[0].message).toMatch(/--ownership strict/);
    }
    expect(r.orders.status).toBe(200);
    expect(r.orders.json.content.orders).toEqual([]);
    expect(r.orders.json.content.pagination.total_records).toBe(0);
    // A cart of no customer stays open to the store's tokens; the catalog is nobody's.
    if (guestCartId) expect((await call(strict, 'getPosCart', 'GET', `/pos/carts/${guestCartId}`, { headers: auth })).status).toBe(200);
    expect((await call(strict, 'listCountries', 'GET', '/common/countries', { headers: auth })).status).toBe(200);
  });

  it('strict: a token signed in as a customer reads that customer, and no other', async () => {
    const { customerId, cartId } = await owned(strict);
    const signIn = await http(`${backOffice(strict)}/customers/${customerId}/sign-in`, 'POST');
    expect(signIn.status).toBe(200);
    expect(signIn.json.content.user).toMatchObject({ is_anonymous: false, is_logged_in: true });
    const auth = { authorization: `Bearer ${signIn.json.content.access_token}` };
    const r = await reads(strict, auth, customerId, cartId);
    expect([r.cards.status, r.orders.status, r.cart.status, r.coupons.status, r.fulfillment.status]).toEqual([200, 200, 200, 200, 200]);
    expect(r.orders.json.content.pagination.total_records).toBeGreaterThan(0);
    const customers: any[] = (await http(`${backOffice(strict)}/world/customers`)).json;
    const other = customers.find((c) => c.id !== customerId)!;
    expect((await call(strict, 'listCustomerCards', 'GET', `/customers/${other.id}/cards`, { headers: auth })).status).toBe(404);
    expect((await call(strict, 'listOrders', 'GET', `/orders?user_id=${other.id}`, { headers: auth })).json.content.orders).toEqual([]);
    // The sign-in is the store's: unknown customers are 404, and the token opens no other store.
    expect((await http(`${backOffice(strict)}/customers/cst_NOPE00/sign-in`, 'POST')).status).toBe(404);
    expect((await http(`${storefront(strict, 'other-store')}/common/countries`, 'GET', { headers: auth })).status).toBe(401);
  });

  it('strict: the token that creates a customer reads as that customer', async () => {
    const { auth } = await anonymous(strict);
    const created = await call(strict, 'createCustomer', 'POST', '/customers', { headers: auth, body: CUSTOMER });
    expect(created.status).toBe(201);
    const id = created.json.content.customer_detail.id;
    const cards = await call(strict, 'listCustomerCards', 'GET', `/customers/${id}/cards`, { headers: auth });
    expect(cards.status).toBe(200);
    expect(cards.json.content.cards).toEqual([]);
    expect((await call(strict, 'listCustomerCards', 'GET', '/customers/cst_9XK2PL/cards', { headers: auth })).status).toBe(404);
    // Another anonymous token does not read it.
    const stranger = await anonymous(strict);
    expect((await call(strict, 'listCustomerCards', 'GET', `/customers/${id}/cards`, { headers: stranger.auth })).status).toBe(404);
  });

  it('strict: a binding survives a restart with --data-dir, and no file of the store holds a token', async () => {
    const t = await tempDir();
    try {
      const first = await startSandbox({ webhooks: false, sandbox: { ownership: 'strict', dataDir: t.dir } });
      const { token, auth } = await anonymous(first);
      const id = (await call(first, 'createCustomer', 'POST', '/customers', { headers: auth, body: CUSTOMER })).json.content.customer_detail.id;
      const signIn = (await http(`${backOffice(first)}/customers/cst_9XK2PL/sign-in`, 'POST')).json.content.access_token as string;
      await first.close();
      const journal = storeBytes(t.dir);
      expect(journal).toContain('cst_9XK2PL');
      expect(journal).not.toContain(token);
      expect(journal).not.toContain(signIn);
      const again = await startSandbox({ webhooks: false, sandbox: { ownership: 'strict', dataDir: t.dir } });
      try {
        expect((await call(again, 'listCustomerCards', 'GET', `/customers/${id}/cards`, { headers: auth })).status).toBe(200);
        expect((await call(again, 'listCustomerCards', 'GET', '/customers/cst_9XK2PL/cards', { headers: auth })).status).toBe(404);
        expect((await call(again, 'listCustomerCards', 'GET', '/customers/cst_9XK2PL/cards', { headers: { authorization: `Bearer ${signIn}` } })).status).toBe(200);
      } finally {
        await again.close();
      }
    } finally {
      await t.remove();
    }
  });
});
