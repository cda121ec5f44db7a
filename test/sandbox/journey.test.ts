// A front-end developer's script against `npm start`, with fetch as a browser app has it: sign in
// anonymously, browse with a filter and a sort, open a variant, a cart, its coupons and fulfillment
// options, the orders; then register a webhook on a local receiver and create a customer, whose
// customer.created delivery arrives signed and is verified by the receiver kit; and a token the sandbox
// never issued is refused. Every answer is checked against the contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse } from '../../src/validators/index.js';
import { sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { startSandbox } from './helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

let wb: Workbench;
let receiver: Receiver;
let base: string;

beforeAll(async () => {
  wb = await startSandbox();
  receiver = await startReceiver();
  base = `${wb.url}/api/v1/demo-store/storefront`;
});
afterAll(async () => {
  await wb?.close();
  await receiver?.close();
});

/** fetch + the contract check a careful app would run in its tests. */
async function api(operationId: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, init);
  const body = await res.json();
  const verdict = validateResponse('storefront', operationId, res.status, body);
  expect(verdict, `${operationId} ${res.status}`).toEqual({ valid: true });
  return { status: res.status, body };
}

describe('a front end built against the sandbox', () => {
  it('signs in, browses, opens a cart with its coupons and fulfillment options, lists orders', async () => {
    const anon = await api('createAnonymousUser', '/auth/anonymous', { method: 'POST', headers: { 'X-Api-Key': sandboxApiKey('demo-store') } });
    const token: string = anon.body.content.access_token;
    const headers = { Authorization: `Bearer ${token}` };

    const list = await api('listProducts', `/catalog/products?category_slug=lips&sort_by=${encodeURIComponent('{"selling_price":"asc"}')}&limit=5`, { headers });
    const products = list.body.content.products;
    expect(products.length).toBe(5);
    expect(products.every((p: any) => p.categories.some((c: any) => c.slug === 'lips'))).toBe(true);
    expect(products.map((p: any) => p.pricing.selling_price)).toEqual([...products.map((p: any) => p.pricing.selling_price)].sort((a, b) => a - b));
    expect(list.body.content.pagination).toMatchObject({ limit: 5, previous_page: null, next_page: 2 });

    const pick = products.find((p: any) => p.variants.length > 1) ?? products[0];
    const variant = await api('getVariant', `/catalog/products/${pick.id}/variants/${pick.variants[1]?.id ?? pick.variants[0].id}?inventory=true`, { headers });
    expect(variant.body.content.variant.product_id).toBe(pick.id);
    expect(variant.body.content.variant.inventory.length).toBeGreaterThan(0);

    const cart = await api('getPosCart', '/pos/carts/crt_8N2F6Q', { headers });
    expect(cart.body.content.cart.grand_total).toBe(2889.82);
    const coupons = await api('evaluateCartCoupons', '/pos/carts/crt_8N2F6Q/evaluate-coupons', { headers });
    expect(coupons.body.content.applicable_coupons.map((c: any) => c.coupon_code[0])).toContain('LIPS20');
    const options = await api('getFulfillmentOptions', '/shipping/fulfillment-options', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ cart_id: 'crt_8N2F6Q', delivery_pincode: '560038' }),
    });
    expect(options.body.content.summary.recommended_store.id).toBe('loc_BLR_IND');

    const orders = await api('listOrders', `/orders?user_id=cst_9XK2PL&status=delivered&sort_by=${encodeURIComponent('{"order_date":"desc"}')}`, { headers });
    expect(orders.body.content.orders.length).toBeGreaterThan(0);
    expect(orders.body.content.orders.every((o: any) => o.status === 'delivered')).toBe(true);
    const mine = await api('listOrders', `/orders?user_id=${anon.body.content.user.id}`, { headers });
    expect(mine.body.content.orders).toEqual([]);
  });

  it('creates a customer: customer.created arrives, signed, and passes the receiver kit', async () => {
    await receiver.subscribe(wb, ['customer.created']);
    const anon = await api('createAnonymousUser', '/auth/anonymous', { method: 'POST', headers: { 'X-Api-Key': sandboxApiKey('demo-store') } });
    const created = await api('createCustomer', '/customers', {
      method: 'POST',
      headers: { Authorization: `Bearer ${anon.body.content.access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        business: { business_type: 'retailer', name: 'Kumar Stores', pan_number: 'AAAPK1234C', gstin: '27AAAPK1234C1Z5' },
        address: { first_name: 'Asha', last_name: 'Kumar', country_code: '+91', phone: '9876543210', email: 'asha@example.com', address_line1: '12 MG Road', city: 'Mumbai', state: 'Maharashtra', country: 'India', pincode: '400001' },
      }),
    });
    expect(created.status).toBe(201);
    const customer = created.body.content.customer_detail;
    const delivery = await receiver.next('customer.created', (b) => b.payload.properties.id === customer.id);
    expect(delivery.body.payload.properties).toEqual(customer);
    expect(delivery.body.payload).toMatchObject({ store_id: 'demo-store', user_id: customer.id, event: 'customer.created' });
    expect(delivery.body.is_test).toBe(false);
    expect(receiver.rejected).toEqual([]);
    const cards = await api('listCustomerCards', `/customers/${customer.id}/cards`, { headers: { Authorization: `Bearer ${anon.body.content.access_token}` } });
    expect(cards.body.content.cards).toEqual([]);
  });

  it('refuses a token the sandbox never issued', async () => {
    const refused = await api('listProducts', '/catalog/products', { headers: { Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.made-up.token' } });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ success: false, content: { error: { code: 'unauthorized' } } });
  });
});
