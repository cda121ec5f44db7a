// Issue 26, "set up any state the contract can show": carts made and changed through the back office
// (outside the contract), through the package's typed client (createBackOfficeClient) over real HTTP. Each
// cart is read back through the storefront (getPosCart, evaluateCartCoupons, getFulfillmentOptions) with
// a token and every answer validated against the spec; the events are received signed by the package's
// receiver kit; every kind of bad body is a 400 with the envelope naming the field, and nothing is written;
// a restart on the same --data-dir answers the same carts. One workbench (--ownership strict, so the
// carts of each customer are read with that customer's token), started twice on one data directory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse } from 'storefront-contract/validators';
import { BACK_OFFICE_ROUTES } from '../../workbench/sandbox/index.js';
import { CLOCK_ROUTES } from '../../workbench/clock/routes.js';
import { describeRoutes } from '../../workbench/http/control-routes.js';
import { BACK_OFFICE_CALLS, BACK_OFFICE_PREFIX } from '../../workbench/sandbox/back-office-api.js';
import { BackOfficeError, createBackOfficeClient, type BackOfficeClient, type CartWritten, type Workbench, type WorldSummary } from '../../workbench/index.js';
import { anonymous, backOffice, http, startSandbox, storefront, tempDir } from './helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

const STORE = 'demo-store';
let data: { dir: string; remove: () => Promise<void> };
let wb: Workbench;
let office: BackOfficeClient;
let receiver: Receiver;
let world: WorldSummary;
/** An anonymous token (reads carts without a customer) and a token per customer (reads that customer's). */
let guest: Record<string, string>;
const tokens = new Map<string, Record<string, string>>();
/** Every cart made here, by id: its last answer, to compare after the restart. */
const made = new Map<string, CartWritten>();
/** A whole CartAddress (a customer's, as a created cart copies it). */
let sampleAddress: NonNullable<CartWritten['cart']['billing_address']>;

const start = () =>
  startSandbox({ webhooks: { timeScale: 0.01, dataDir: data.dir }, sandbox: { dataDir: data.dir, ownership: 'strict' } });

beforeAll(async () => {
  data = await tempDir('carts-');
  wb = await start();
  office = createBackOfficeClient({ baseUrl: wb.url, storeId: STORE });
  receiver = await startReceiver();
  await receiver.subscribe(wb, ['cart.created', 'cart.updated', 'inventory.updated']);
  world = await office.getWorld();
  ({ auth: guest } = await anonymous(wb));
  for (const c of world.customers.slice(0, 3)) {
    const signed = await office.signInCustomer({ customer_id: c.id });
    tokens.set(c.id, { authorization: `Bearer ${signed.access_token}` });
  }
});
afterAll(async () => {
  await wb?.close();
  await receiver?.close();
  await data?.remove();
});

const tokenOf = (cart: { customer_id: string | null }) => (cart.customer_id ? tokens.get(cart.customer_id)! : guest);

/** A storefront call whose answer must be valid against the spec for its operation and status. */
async function read(operationId: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const r = await http(`${storefront(wb)}${path}`, method, { headers, body });
  expect(validateResponse('storefront', operationId, r.status, r.json), `${operationId} ${path} -> ${r.status}: ${r.text.slice(0, 300)}`).toEqual({ valid: true });
  return r;
}

/** The cart as the storefront answers it now, with the owner's token (valid against the spec). */
async function storefrontCart(written: CartWritten) {
  const r = await read('getPosCart', 'GET', `/pos/carts/${encodeURIComponent(written.cart.id)}`, tokenOf(written));
  expect(r.status).toBe(200);
  return r.json.content.cart;
}

/** Keeps the answer, checks the storefront answers the same cart, and that the event arrived with it. */
async function settled(written: CartWritten, event: 'cart.created' | 'cart.updated') {
  made.set(written.cart.id, written);
  expect(await storefrontCart(written)).toEqual(written.cart);
  expect(written.events.map((e) => e.event)).toEqual([event]);
  const delivery = await receiver.next(event, (b) => b.event_id === written.events[0].event_id);
  expect(delivery.body.payload.properties).toEqual(written.cart);
  expect(delivery.body.payload).toMatchObject({ store_id: STORE, user_id: written.customer_id ?? written.user_id ?? 'adm_sandbox', admin_user_id: 'adm_sandbox' });
  return written;
}

const product = (kind: keyof WorldSummary['products'], n = 0) => {
  const p = world.products[kind][n];
  if (!p) throw new Error(`the seeded world has no ${kind} product #${n}`);
  return p;
};

describe('back-office carts (outside the contract)', () => {
  it('every back-office route is a call of the typed client, and GET /__simulator lists them', async () => {
    const calls = Object.values(BACK_OFFICE_CALLS).map((c) => `${c.method} ${BACK_OFFICE_PREFIX}${c.path}`);
    expect([...Object.keys(BACK_OFFICE_ROUTES), ...Object.keys(describeRoutes(CLOCK_ROUTES))].sort()).toEqual(calls.sort());
    const listed = (await http(`${wb.url}/__simulator`)).json.content.routes;
    expect(Object.keys(listed)).toEqual(expect.arrayContaining(calls));
    for (const key of calls.filter((c) => c.includes('/carts'))) expect(listed[key], key).toBe(BACK_OFFICE_ROUTES[key]);
  });

  it('an empty cart of a customer: the customer\'s addresses, expiry 7 days after the store\'s clock, cart.created', async () => {
    const customer = world.customers[0];
    const before = wb.sandbox!.sandbox.now(STORE);
    const written = await settled(await office.createCart({ customer_id: customer.id }), 'cart.created');
    const after = wb.sandbox!.sandbox.now(STORE);
    expect(written.cart).toMatchObject({ active: true, status: 'not-ready-for-payment', status_error_message: 'Cart is empty', cart_items: [], cart_items_count: 0, grand_total: 0, shipments: [], coupon_code: null });
    const expires = Date.parse(written.cart.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(after + 7 * 86_400_000);
    expect(written.cart.billing_address).toMatchObject({ first_name: expect.any(String), is_phone_verified: true });
    sampleAddress = written.cart.billing_address!;
    expect(written.customer_id).toBe(customer.id);
    // Strict ownership: another customer's token does not see it.
    const other = tokens.get(world.customers[1].id)!;
    expect((await read('getPosCart', 'GET', `/pos/carts/${written.cart.id}`, other)).status).toBe(404);
  });

  it('a cart with one line, priced by the calculator (amounts are never taken from the body), for an anonymous user', async () => {
    const p = product('without_variant_options');
    const written = await settled(await office.createCart({ user_id: 'usr_WALKIN01', cart_items: [{ product_id: p.id, quantity: 2 }], customer_note: 'Gift wrap, please' }), 'cart.created');
    expect(written.cart.cart_items).toHaveLength(1);
    expect(written.cart.cart_items[0]).toMatchObject({ product_id: p.id, variant_id: p.variants[0], quantity: 2, stock_available: true });
    expect(written.cart.subtotal).toBeGreaterThan(0);
    expect(written.cart.grand_total).toBeCloseTo(written.cart.subtotal + written.cart.total_tax + written.cart.shipping_amount + written.cart.handling_charge_excluding_tax - written.cart.promotion_discount_amount - written.cart.coupon_discount_amount, 2);
    expect(written.cart).toMatchObject({ customer_note: 'Gift wrap, please', status_error_message: 'Select a payment method to continue.', billing_address: null });
    // Amounts in a body are not fields of it.
    const r = await http(`${backOffice(wb)}/carts`, 'POST', { body: { cart_items: [{ product_id: p.id, quantity: 1 }], grand_total: 1 } });
    expect(r.status).toBe(400);
    expect(r.json.content.error.details.map((d: any) => d.name)).toEqual(['grand_total']);
    // The order placed from it is the user's.
    const order = await office.placeOrder({ cart_id: written.cart.id });
    expect(order.order.user_id).toBe('usr_WALKIN01');
    made.set(written.cart.id, { ...written, cart: await storefrontCart(written) });
  });

  it('a cart with an expired coupon: kept, not applied; evaluate-coupons says it expired. A live coupon applies', async () => {
    const customer = world.customers[1];
    const lines = [{ product_id: product('without_variant_options', 1).id, quantity: 3 }];
    const expired = await settled(await office.createCart({ customer_id: customer.id, cart_items: lines, coupon_code: 'FESTIVE300' }), 'cart.created');
    expect(expired.cart).toMatchObject({ coupon_code: null, is_coupon_applied: false, coupon_discount_amount: 0, applied_coupons: [] });
    // The seeded coupon's window is dated from the store's clock, like the rest of the world.
    const coupons = (await http(`${backOffice(wb)}/world/coupons`)).json;
    const ended = coupons.find((c: any) => c.id === 'cpn_FESTIVE2024').expires_at.slice(0, 10);
    expect(Date.parse(ended)).toBeLessThan(Date.now());
    expect(expired.coupon).toEqual({ code: 'FESTIVE300', coupon_id: 'cpn_FESTIVE2024', applied: false, reason: `The coupon expired on ${ended}` });
    const evaluated = (await read('evaluateCartCoupons', 'GET', `/pos/carts/${expired.cart.id}/evaluate-coupons`, tokenOf(expired))).json.content;
    expect(evaluated.inapplicable_coupons.find((c: any) => c.id === 'cpn_FESTIVE2024')).toMatchObject({ reason: `The coupon expired on ${ended}` });

    const live = await settled(await office.updateCart({ cart_id: expired.cart.id }, { coupon_code: 'WELCOME100' }), 'cart.updated');
    expect(live.cart).toMatchObject({ coupon_code: 'WELCOME100', is_coupon_applied: true, coupon_discount_amount: 100 });
    expect(live.coupon).toMatchObject({ applied: true, reason: null });
    expect(live.cart.grand_total).toBeCloseTo(expired.cart.grand_total - 100, 2);
    const removed = await settled(await office.updateCart({ cart_id: expired.cart.id }, { coupon_code: null }), 'cart.updated');
    expect(removed.coupon).toBeNull();
    expect(removed.cart.grand_total).toBe(expired.cart.grand_total);
  });

  it('out of stock: one variant, then every variant of a product (inventory.updated each); a cart line shows it, and collect-in-store is gone', async () => {
    const several = product('several_variants');
    const [first, ...rest] = several.variants;
    const one = await office.moveStock({ product_id: several.id, variant_id: first, stock_quantity: 0 });
    expect(one).toMatchObject({ product_id: several.id, variant_id: first, stock_quantity: 0 });
    const variant = (await read('getVariant', 'GET', `/catalog/products/${several.id}/variants/${first}`, guest)).json.content.variant;
    expect(variant.stock_available).toBe(false);
    expect((await read('getVariant', 'GET', `/catalog/products/${several.id}/variants/${rest[0]}`, guest)).json.content.variant.stock_available).toBe(true);

    const all = await office.moveStock({ product_id: several.id, all_variants: true, stock_quantity: 0 });
    expect('variants' in all && all.variants.map((v) => [v.variant_id, v.stock_quantity])).toEqual(several.variants.map((id) => [id, 0]));
    expect(all.events.map((e) => e.event)).toEqual(several.variants.map(() => 'inventory.updated'));
    for (const id of rest) await receiver.next('inventory.updated', (b) => b.payload.properties.variant_id === id && b.payload.properties.stock_quantity === 0);
    const pages = await Promise.all([1, 2].map((page) => read('listProducts', 'GET', `/catalog/products?limit=100&page=${page}`, guest)));
    const listed = pages.flatMap((r) => r.json.content.products).filter((p: any) => p.id === several.id);
    expect(listed.map((p: any) => [p.id, p.stock_available])).toEqual([[several.id, false]]);

    const customer = world.customers[2];
    const inStock = product('without_variant_options', 2);
    const written = await settled(
      await office.createCart({ customer_id: customer.id, cart_items: [{ product_id: several.id, variant_id: first, quantity: 1 }, { product_id: inStock.id, quantity: 1 }], status_error_message: `${several.name} is out of stock.` }),
      'cart.created',
    );
    expect(written.cart.cart_items.map((i) => [i.variant_id, i.stock_available])).toEqual([[first, false], [inStock.variants[0], true]]);
    expect(written.cart.status_error_message).toBe(`${several.name} is out of stock.`);
    const options = (await read('getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', tokenOf(written), { cart_id: written.cart.id, delivery_pincode: '560038' })).json.content;
    expect(options.summary.collect_available).toBe(false);
    expect(options.collect).toEqual([]);
    // Back in stock, the same cart can be collected at the nearby store.
    await office.moveStock({ product_id: several.id, variant_id: first, stock_quantity: 50 });
    const again = (await read('getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', tokenOf(written), { cart_id: written.cart.id, delivery_pincode: '560038' })).json.content;
    expect(again.summary.collect_available).toBe(true);
  });

  it('carts per customer: each customer reads its own carts with its token; an anonymous cart is open to every token', async () => {
    const p = product('without_variant_options', 3);
    const per = await Promise.all(world.customers.slice(0, 3).map((c, i) => office.createCart({ customer_id: c.id, cart_items: [{ product_id: p.id, quantity: i + 1 }] })));
    for (const written of per) await settled(written, 'cart.created');
    for (const [i, written] of per.entries()) {
      for (const [j, other] of per.entries()) {
        const r = await read('getPosCart', 'GET', `/pos/carts/${other.cart.id}`, tokenOf(written));
        expect(r.status, `customer ${i} reads the cart of customer ${j}`).toBe(i === j ? 200 : 404);
      }
    }
    const open = await settled(await office.createCart({ cart_items: [{ product_id: p.id, quantity: 1 }] }), 'cart.created');
    for (const token of [guest, ...tokens.values()]) expect((await read('getPosCart', 'GET', `/pos/carts/${open.cart.id}`, token)).status).toBe(200);
    const owners = new Map((await office.getWorld()).carts.map((c) => [c.id, c.customer_id]));
    expect(per.map((w) => owners.get(w.cart.id))).toEqual(world.customers.slice(0, 3).map((c) => c.id));
  });

  it('changing lines: add, add more, set a quantity, remove, replace all; fields; each a cart.updated', async () => {
    const a = product('without_variant_options', 0);
    const b = product('several_variants', 1);
    const customer = world.customers[0];
    const cart = (await office.createCart({ customer_id: customer.id, id: 'crt_LINES_1' })).cart;
    expect(cart.id).toBe('crt_LINES_1');
    let w = await settled(await office.addCartItem({ cart_id: cart.id }, { product_id: a.id, quantity: 1 }), 'cart.updated');
    expect(w.cart.status_error_message).toBe('Select a payment method to continue.');
    w = await settled(await office.addCartItem({ cart_id: cart.id }, { product_id: a.id, quantity: 2 }), 'cart.updated');
    expect(w.cart.cart_items.map((i) => [i.variant_id, i.quantity])).toEqual([[a.variants[0], 3]]);
    w = await settled(await office.addCartItem({ cart_id: cart.id }, { product_id: b.id, variant_id: b.variants[1], quantity: 1 }), 'cart.updated');
    w = await settled(await office.updateCartItem({ cart_id: cart.id, variant_id: a.variants[0] }, { quantity: 5 }), 'cart.updated');
    expect(w.cart.cart_items.map((i) => [i.variant_id, i.quantity])).toEqual([[a.variants[0], 5], [b.variants[1], 1]]);
    const five = w.cart.subtotal;
    w = await settled(await office.removeCartItem({ cart_id: cart.id, variant_id: a.variants[0] }), 'cart.updated');
    expect(w.cart.cart_items.map((i) => i.variant_id)).toEqual([b.variants[1]]);
    expect(w.cart.subtotal).toBeLessThan(five);
    w = await settled(await office.removeCartItem({ cart_id: cart.id, variant_id: b.variants[1] }), 'cart.updated');
    expect(w.cart).toMatchObject({ cart_items: [], status_error_message: 'Cart is empty', grand_total: 0 });

    const address = { ...w.cart.billing_address!, city: 'Mysuru', pincode: '570001' };
    w = await settled(
      await office.updateCart(
        { cart_id: cart.id },
        {
          cart_items: [{ product_id: b.id, variant_id: b.variants[0], quantity: 2 }, { product_id: a.id, quantity: 1 }],
          shipping_address: address,
          billing_address: null,
          status: 'ready-for-payment',
          status_error_message: null,
          metadata: { channel: 'pos', register: 3 },
          expires_in_seconds: -3600,
          fulfillment_preference: { fulfillment_type: 'collect-in-store', pickup_location_id: world.locations[0].id },
          credit_balance_used: 25.5,
        },
      ),
      'cart.updated',
    );
    expect(w.cart.cart_items.map((i) => [i.variant_id, i.quantity])).toEqual([[b.variants[0], 2], [a.variants[0], 1]]);
    // Its expiry is an hour ago on the store's clock: it reads as expired (register SF-040), whatever status it was given.
    expect(w.cart).toMatchObject({ active: false, status: 'expired', status_error_message: expect.stringMatching(/^The cart expired at /) });
    expect(w.cart).toMatchObject({ shipping_address: address, billing_address: null, metadata: { channel: 'pos', register: 3 }, credit_balance_used: 25.5, shipments: [] });
    expect(w.cart.fulfillment_preference).toEqual({ fulfillment_type: 'collect-in-store', pickup_location_id: world.locations[0].id, preference_type: 'user', pickup_location_name: world.locations[0].name });
    // An expired cart: its expiry is in the past of the store's clock, and the storefront still answers it.
    expect(Date.parse(w.cart.expires_at)).toBeLessThan(wb.sandbox!.sandbox.now(STORE));
    const past = await settled(await office.updateCart({ cart_id: cart.id }, { expires_at: '2026-01-01T00:00:00Z' }), 'cart.updated');
    expect(past.cart.expires_at).toBe('2026-01-01T00:00:00Z');

    // Missing carts and lines are the envelope's 404.
    for (const attempt of [
      () => office.updateCart({ cart_id: 'crt_NOPE' }, { status: 'x' }),
      () => office.addCartItem({ cart_id: 'crt_NOPE' }, { product_id: a.id, quantity: 1 }),
      () => office.updateCartItem({ cart_id: cart.id, variant_id: 'var_NOPE' }, { quantity: 1 }),
      () => office.removeCartItem({ cart_id: cart.id, variant_id: 'var_NOPE' }),
      () => office.deleteCart({ cart_id: 'crt_NOPE' }),
    ]) {
      const e = await attempt().then(() => undefined, (error: unknown) => error);
      expect(e).toBeInstanceOf(BackOfficeError);
      expect(e).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  it('deleting a cart: the storefront answers 404 for it; a cart an order was placed from stays (409)', async () => {
    const written = await office.createCart({ cart_items: [{ product_id: product('without_variant_options').id, quantity: 1 }] });
    const deleted = await office.deleteCart({ cart_id: written.cart.id });
    expect(deleted).toEqual({ cart_id: written.cart.id, events: [] });
    expect((await read('getPosCart', 'GET', `/pos/carts/${written.cart.id}`, guest)).status).toBe(404);
    const ordered = [...made.values()].find((c) => c.user_id === 'usr_WALKIN01')!;
    const refused = await http(`${backOffice(wb)}/carts/${ordered.cart.id}`, 'DELETE');
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ success: false, content: { error: { code: 'conflict' } } });
    made.set(written.cart.id, { ...written, cart: { ...written.cart, id: '(deleted)' } });
  });

  it('item 28: a cart that became an order cannot be changed (set active again and ordered twice): 409 with the reason DELETE gives', async () => {
    const p = product('without_variant_options');
    const written = await office.createCart({ user_id: 'usr_TWICE01', cart_items: [{ product_id: p.id, quantity: 1 }] });
    const cartUrl = `${backOffice(wb)}/carts/${written.cart.id}`;
    // Before it is ordered, the same changes are accepted (the refusal below is about the order, not the body).
    expect((await http(cartUrl, 'PATCH', { body: { customer_note: 'still open' } })).status).toBe(200);
    const order = await office.placeOrder({ cart_id: written.cart.id });
    const orders = (await office.getWorld()).counts.orders;

    const deleted = await http(cartUrl, 'DELETE');
    expect(deleted.status).toBe(409);
    const changes: Array<[string, string, unknown]> = [
      ['PATCH', cartUrl, { active: true }],
      ['PATCH', cartUrl, { active: true, status: 'not-ready-for-payment' }],
      ['PATCH', cartUrl, { customer_note: 'changed after the order' }],
      ['POST', `${cartUrl}/items`, { product_id: p.id, quantity: 1 }],
      ['PATCH', `${cartUrl}/items/${p.variants[0]}`, { quantity: 5 }],
      ['DELETE', `${cartUrl}/items/${p.variants[0]}`, undefined],
    ];
    for (const [method, url, body] of changes) {
      const r = await http(url, method, { body });
      expect(r.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(409);
      expect(r.json).toMatchObject({ success: false, content: { error: { code: 'conflict' } } });
      expect(r.json.message).toBe(deleted.json.message);
      expect(r.json.content.error.details).toEqual(deleted.json.content.error.details);
      expect(r.json.message).toContain(`became order ${order.order.order_number}`);
    }
    // Not ordered a second time, and the cart is as the order left it.
    const again = await http(`${backOffice(wb)}/orders`, 'POST', { body: { cart_id: written.cart.id } });
    expect(again.status).toBe(409);
    expect((await office.getWorld()).counts.orders).toBe(orders);
    const cart = (await http(`${backOffice(wb)}/world/carts`)).json.find((c: { id: string }) => c.id === written.cart.id);
    expect(cart).toMatchObject({ active: false, status: 'ordered', customer_note: 'still open' });
    expect(cart.cart_items).toHaveLength(1);
    expect(cart.cart_items[0].quantity).toBe(1);
  });

  describe('bad input: a 400 with the envelope naming the field, and nothing written', () => {
    const bigCart = () => Array.from({ length: 101 }, (_, i) => ({ product_id: `prd_${i}`, quantity: 1 }));
    const cases: Array<[string, () => unknown, string[]]> = [
      ['an unknown customer', () => ({ customer_id: 'cst_NOBODY' }), ['customer_id']],
      ['an unknown product', () => ({ cart_items: [{ product_id: 'prd_NOPE', quantity: 1 }] }), ['cart_items.0.product_id']],
      ['an unknown variant', () => ({ cart_items: [{ product_id: product('several_variants').id, variant_id: 'var_NOPE', quantity: 1 }] }), ['cart_items.0.variant_id']],
      ['a variant of another product', () => ({ cart_items: [{ product_id: product('several_variants').id, variant_id: product('several_variants', 1).variants[0], quantity: 1 }] }), ['cart_items.0.variant_id']],
      ['no variant of a product with several', () => ({ cart_items: [{ product_id: product('several_variants').id, quantity: 1 }] }), ['cart_items.0.variant_id']],
      ['a product without variants', () => ({ cart_items: [{ product_id: product('no_variants_at_all').id, quantity: 1 }] }), ['cart_items.0.product_id']],
      ['a quantity of 0, 1.5, -1, "2", past the largest stock, none', () => ({ cart_items: [0, 1.5, -1, '2', 1e10, undefined].map((quantity, i) => ({ product_id: product('without_variant_options', i % 5).id, quantity })) }), [0, 1, 2, 3, 4, 5].map((i) => `cart_items.${i}.quantity`)],
      ['the same variant twice', () => ({ cart_items: [{ product_id: product('without_variant_options').id, quantity: 1 }, { product_id: product('without_variant_options').id, quantity: 2 }] }), ['cart_items.1.variant_id']],
      ['more lines than a cart holds', () => ({ cart_items: bigCart() }), ['cart_items']],
      ['a subscription on a variant without a plan', () => ({ cart_items: [{ product_id: product('without_variant_options').id, quantity: 1, on_subscription: true }] }), ['cart_items.0.on_subscription']],
      ['an unknown coupon', () => ({ coupon_code: 'FREE4ALL' }), ['coupon_code']],
      ['an unknown customer group', () => ({ customer_group_id: 'cgrp_NOPE' }), ['customer_group_id']],
      ['an unknown pickup location', () => ({ fulfillment_preference: { fulfillment_type: 'collect-in-store', pickup_location_id: 'loc_NOPE' } }), ['fulfillment_preference.pickup_location_id']],
      ['an address without its fields', () => ({ billing_address: { city: 'Pune' } }), ['billing_address.id']],
      ['an address field of the wrong type', () => ({ shipping_address: { ...sampleAddress, is_phone_verified: 'yes' } }), ['shipping_address.is_phone_verified']],
      ['a date that is not RFC 3339, and both expiry forms', () => ({ expires_at: '01/12/2026' }), ['expires_at']],
      ['both expiry forms', () => ({ expires_at: '2026-12-01T00:00:00Z', expires_in_seconds: 60 }), ['expires_in_seconds']],
      ['metadata that is not an object, a status that is empty', () => ({ metadata: [1], status: '' }), ['metadata', 'status']],
      ['a number in metadata past the largest amount', () => ({ metadata: { n: 1e15 } }), ['metadata']],
      ['credit in thousandths', () => ({ credit_balance_used: 1.005 }), ['credit_balance_used']],
      ['an id taken, and an id with a slash', () => ({ id: 'crt_8N2F6Q' }), ['id']],
      ['an id with a slash', () => ({ id: 'crt/1' }), ['id']],
      ['a field that is not one', () => ({ subtotal: 10, cart_items: [{ product_id: product('without_variant_options').id, quantity: 1, price: 1 }] }), ['subtotal', 'cart_items.0.price']],
      ['a prototype key in metadata', () => '{"metadata":{"__proto__":{"polluted":true}}}', ['metadata.__proto__']],
      ['a prototype key at the top', () => '{"constructor":{"prototype":{}}}', ['constructor']],
    ];
    it.each(cases)('%s', async (_name, body, fields) => {
      const carts = (await office.getWorld()).counts.carts;
      const given = body();
      const r = await http(`${backOffice(wb)}/carts`, 'POST', typeof given === 'string' ? { headers: { 'content-type': 'application/json' }, body: given } : { body: given });
      expect(r.status, r.text.slice(0, 400)).toBe(400);
      expect(r.headers['x-simulator']).toBe('outside-contract');
      expect(r.json).toMatchObject({ success: false, message: expect.any(String), content: { error: { code: 'invalid_body' } } });
      const names = r.json.content.error.details.map((d: any) => d.name);
      for (const field of fields) expect(names.some((n: string) => n === field || n.startsWith(`${field}.`)), `${field} in ${JSON.stringify(names)}`).toBe(true);
      expect((await office.getWorld()).counts.carts).toBe(carts);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('in the line routes and the change route too, and the client throws them as BackOfficeError', async () => {
      const cart = (await office.createCart({ cart_items: [{ product_id: product('without_variant_options').id, quantity: 1 }] })).cart;
      const line = cart.cart_items[0].variant_id;
      const refusals: Array<[() => Promise<unknown>, string]> = [
        () => office.addCartItem({ cart_id: cart.id }, { product_id: 'prd_NOPE', quantity: 1 }),
        () => office.addCartItem({ cart_id: cart.id }, { product_id: product('without_variant_options').id, quantity: 0 }),
        () => office.updateCartItem({ cart_id: cart.id, variant_id: line }, { quantity: -2 }),
        () => office.updateCartItem({ cart_id: cart.id, variant_id: line }, {}),
        () => office.updateCart({ cart_id: cart.id }, { id: 'crt_RENAMED' } as never),
        () => office.updateCart({ cart_id: cart.id }, {}),
        () => office.moveStock({ product_id: product('several_variants').id, all_variants: true, variant_id: 'x', stock_quantity: 0 }),
      ].map((f, i) => [f, ['product_id', 'quantity', 'quantity', '(body)', 'id', '(body)', 'variant_id'][i]]);
      for (const [attempt, field] of refusals) {
        const e = (await attempt().then(() => undefined, (error: unknown) => error)) as BackOfficeError;
        expect(e, field).toBeInstanceOf(BackOfficeError);
        expect(e.status, e.message).toBe(400);
        expect(e.code).toBe('invalid_body');
        expect(e.details.map((d) => d.name)).toContain(field);
      }
      made.set(cart.id, { ...(await office.updateCart({ cart_id: cart.id }, { customer_note: 'unchanged lines' })) });
      expect(made.get(cart.id)!.cart.cart_items.map((i) => [i.variant_id, i.quantity])).toEqual([[line, 1]]);
    });

    it('an amount past the largest is a 409 before anything is written', async () => {
      const costly = await office.createProduct({ name: 'Gold Leaf Serum', category_ids: [world.categories[0].id], selling_price: 1_000_000_000 });
      const before = (await office.getWorld()).counts.carts;
      const e = (await office.createCart({ cart_items: [{ product_id: costly.product.id, quantity: 5000 }] }).then(() => undefined, (error: unknown) => error)) as BackOfficeError;
      expect(e).toMatchObject({ status: 409, code: 'conflict' });
      expect((await office.getWorld()).counts.carts).toBe(before);
    });
  });

  it('a restart on the same --data-dir answers every cart made here as before (and a deleted one stays deleted)', async () => {
    const answers = new Map<string, unknown>();
    for (const [id, written] of made) if (written.cart.id !== '(deleted)') answers.set(id, await storefrontCart(written));
    const before = wb.url;
    await wb.close();
    wb = await start();
    office = createBackOfficeClient({ baseUrl: wb.url, storeId: STORE });
    // Image URLs carry the workbench's address, which a restart on a free port changes.
    const here = (value: unknown) => JSON.parse(JSON.stringify(value).split(`${before}/__sandbox-assets/`).join(`${wb.url}/__sandbox-assets/`));
    for (const [id, written] of made) {
      if (written.cart.id === '(deleted)') expect((await read('getPosCart', 'GET', `/pos/carts/${id}`, guest)).status, id).toBe(404);
      else expect(await storefrontCart(written), id).toEqual(here(answers.get(id)));
    }
    expect(made.size).toBeGreaterThanOrEqual(10);
  });
});
