// Issue #25, finding 2: huge finite numbers once became null. A back-office price of 1e307 made variant
// pricing, lists, carts, coupon estimates, orders and product.updated carry null where the spec wants a
// number (round2 multiplies by 100: Infinity), a stock adjust of 1e308 gave Infinity in inventory.updated,
// and 1e-9 was stored as 0. The bounds of register SF-037 (workbench/sandbox/bounds.ts) are enforced on
// write (400 naming the field and the bound), and a write whose sums would pass the largest amount is a 409.
// Against the real workbench over HTTP; every answer is judged by the contract's validators.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateWebhookDelivery } from 'storefront-contract/validators';
import { MAX_AMOUNT, MAX_PRICE, MAX_STOCK, largestNumber } from '../../workbench/sandbox/bounds.js';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, backOffice, call, http, q, startSandbox, tempDir } from './helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

let wb: Workbench;
let auth: Record<string, string>;
let receiver: Receiver;
let world: any;

beforeAll(async () => {
  wb = await startSandbox();
  ({ auth } = await anonymous(wb));
  receiver = await startReceiver();
  await receiver.subscribe(wb, ['product.updated', 'product.created', 'inventory.updated', 'order.created']);
  world = (await http(`${backOffice(wb)}/world`)).json.content;
});
afterAll(async () => {
  await wb?.close();
  await receiver?.close();
});

function expectRefused(r: { status: number; json: any; text: string }, field: string, bound: string | number) {
  expect(r.status, r.text.slice(0, 300)).toBe(400);
  expect(r.json).toMatchObject({ success: false, content: { error: { code: 'invalid_body' } } });
  expect(r.json.content.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ location: 'body', name: field })]));
  expect(r.json.message).toContain(String(bound));
}

/** No null, Infinity or NaN anywhere a number was: every number finite, within the largest amount. */
function expectFiniteNumbers(value: unknown, what: string) {
  expect(largestNumber(value), what).toBeLessThanOrEqual(MAX_AMOUNT);
}

describe('finding 2: prices and stock within bounds, never null', () => {
  it('the bounds are the ones the spec states (register SF-037, WH-071)', () => {
    const schema = (file: string) => parse(readFileSync(path.join(import.meta.dirname, '../../spec', file), 'utf8')).properties;
    const pricing = schema('openapi/components/schemas/Pricing.yaml');
    for (const field of ['listing_price', 'selling_price', 'selling_price_excluding_tax']) expect(pricing[field].maximum, field).toBe(MAX_PRICE);
    expect(schema('openapi/components/schemas/InventoryLot.yaml').stock_quantity.maximum).toBe(MAX_STOCK);
    const payload = schema('asyncapi/schemas/InventoryPayload.yaml');
    for (const field of ['stock_quantity', 'previous_stock_quantity']) expect(payload[field].maximum, field).toBe(MAX_STOCK);
  });

  const cartWithItems = () => world.carts.find((c: any) => c.items > 0 && c.active);

  it.each([
    [1e307, 'selling_price', MAX_PRICE],
    [1e-9, 'selling_price', '0.01'],
    [0.015, 'selling_price', 'two decimals'],
    [MAX_PRICE + 1, 'selling_price', MAX_PRICE],
    [0, 'selling_price', '0.01'],
  ])('PATCH products/{id} {"selling_price": %s} is a 400 naming the field and the bound', async (price, field, bound) => {
    const product = world.products.first[0];
    const r = await http(`${backOffice(wb)}/products/${product.id}`, 'PATCH', { body: { [field]: price } });
    expectRefused(r, field, bound);
  });

  it('PATCH listing_price 1e307 and POST products with 1e307, 1e-9 and 1e308 stock are 400s', async () => {
    const product = world.products.first[0];
    expectRefused(await http(`${backOffice(wb)}/products/${product.id}`, 'PATCH', { body: { listing_price: 1e307 } }), 'listing_price', MAX_PRICE);
    const category = world.categories[0].id;
    expectRefused(await http(`${backOffice(wb)}/products`, 'POST', { body: { name: 'Huge', category_ids: [category], selling_price: 1e307 } }), 'selling_price', MAX_PRICE);
    expectRefused(await http(`${backOffice(wb)}/products`, 'POST', { body: { name: 'Tiny', category_ids: [category], selling_price: 1e-9 } }), 'selling_price', '0.01');
    expectRefused(await http(`${backOffice(wb)}/products`, 'POST', { body: { name: 'Deep', category_ids: [category], selling_price: 10, stock: 1e308 } }), 'stock', MAX_STOCK);
    expectRefused(
      await http(`${backOffice(wb)}/products`, 'POST', { body: { name: 'Var', category_ids: [category], selling_price: 10, variants: [{ name: 'A', selling_price: 1e307, stock: 1e10 }] } }),
      'variants.0.selling_price',
      MAX_PRICE,
    );
  });

  it('a stock adjust of 1e308, or a stock of 1e308, is a 400; an adjust past the largest stock is a 409', async () => {
    const product = world.products.first.find((p: any) => p.variants.length > 0);
    const variant = product.variants[0];
    expectRefused(await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: product.id, variant_id: variant, adjust: 1e308 } }), 'adjust', MAX_STOCK);
    expectRefused(await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: product.id, variant_id: variant, adjust: -1e308 } }), 'adjust', MAX_STOCK);
    expectRefused(await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: product.id, variant_id: variant, stock_quantity: 1e308 } }), 'stock_quantity', MAX_STOCK);
    const full = await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: product.id, variant_id: variant, stock_quantity: MAX_STOCK } });
    expect(full.status).toBe(200);
    const over = await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: product.id, variant_id: variant, adjust: 1 } });
    expect(over.status, over.text).toBe(409);
    expect(over.json.content.error.code).toBe('conflict');
    const moved = await receiver.next('inventory.updated', (b) => b.payload.properties.variant_id === variant && b.payload.properties.stock_quantity === MAX_STOCK);
    expect(validateWebhookDelivery(moved.body)).toMatchObject({ valid: true });
  });

  it('the largest price is carried everywhere as a number: variant, lists, cart, coupons, fulfillment, order, events', async () => {
    const cart = cartWithItems();
    const line = (await call(wb, 'getPosCart', 'GET', `/pos/carts/${cart.id}`, { headers: auth })).json.content.cart.cart_items[0];
    const patched = await http(`${backOffice(wb)}/products/${line.product_id}`, 'PATCH', { body: { selling_price: MAX_PRICE } });
    expect(patched.status, patched.text.slice(0, 300)).toBe(200);
    expect(patched.json.content.product.pricing.selling_price).toBe(MAX_PRICE);

    const answers = [
      await call(wb, 'getVariant', 'GET', `/catalog/products/${line.product_id}/variants/${line.variant_id}?inventory=true`, { headers: auth }),
      await call(wb, 'listProducts', 'GET', `/catalog/products${q({ sort_by: '{"selling_price":"desc"}', limit: 5 })}`, { headers: auth }),
      await call(wb, 'getPosCart', 'GET', `/pos/carts/${cart.id}`, { headers: auth }),
      await call(wb, 'evaluateCartCoupons', 'GET', `/pos/carts/${cart.id}/coupons`, { headers: auth }),
      await call(wb, 'getFulfillmentOptions', 'POST', '/shipping/fulfillment-options', { headers: auth, body: { cart_id: cart.id, delivery_pincode: '560001' } }),
    ];
    for (const a of answers) expectFiniteNumbers(a.json, a.text.slice(0, 80));
    const listed = answers[1].json.content.products[0];
    expect(listed.pricing.selling_price).toBe(MAX_PRICE);
    const priced = answers[2].json.content.cart;
    expect(priced.grand_total).toBeGreaterThan(MAX_PRICE * line.quantity * 0.9);

    const updated = await receiver.next('product.updated', (b) => b.payload.properties.id === line.product_id && b.payload.properties.pricing?.selling_price === MAX_PRICE);
    expect(validateWebhookDelivery(updated.body)).toMatchObject({ valid: true });

    const placed = await http(`${backOffice(wb)}/orders`, 'POST', { body: { cart_id: cart.id, user_id: cart.customer_id ?? 'usr_bounds' } });
    expect(placed.status, placed.text.slice(0, 300)).toBe(201);
    expect(placed.json.content.order.grand_total).toBe(priced.grand_total);
    expectFiniteNumbers(placed.json, 'placed order');
    const created = await receiver.next('order.created', (b) => b.payload.properties.order_number === placed.json.content.order.order_number);
    expect(validateWebhookDelivery(created.body)).toMatchObject({ valid: true });
    const orders = await call(wb, 'listOrders', 'GET', `/orders${q({ user_id: placed.json.content.order.user_id, sort_by: '{"order_date":"desc"}', limit: 1 })}`, { headers: auth });
    expect(orders.json.content.orders[0].grand_total).toBe(priced.grand_total);
    expect(receiver.rejected).toEqual([]);
  });
});

describe('finding 2: a price whose sums would pass the largest amount is a 409, and nothing changes', () => {
  it('a cart of 2,000 units refuses the largest price (fixtures), keeps its answer, journals nothing', async () => {
    const source = (await http(`${backOffice(wb)}/world/carts`)).json as any[];
    const cart = source.find((c) => c.cart_items.length > 0);
    const big = { ...cart, id: 'crt_BOUNDS', active: true, cart_items: [{ ...cart.cart_items[0], quantity: 2000 }] };
    const { dir, remove } = await tempDir('bounds-');
    try {
      await writeFile(path.join(dir, 'carts.json'), JSON.stringify([big]));
      const other = await startSandbox({ webhooks: false, sandbox: { fixturesDir: dir } });
      try {
        const url = `${other.url}/__simulator/stores/demo-store`;
        const before = await http(`${url}/world`);
        const item = big.cart_items[0];
        const r = await http(`${url}/products/${item.product_id}`, 'PATCH', { body: { selling_price: MAX_PRICE } });
        expect(r.status, r.text.slice(0, 300)).toBe(409);
        expect(r.json.content.error).toMatchObject({ code: 'conflict', details: [expect.objectContaining({ name: 'selling_price' })] });
        expect(r.json.message).toContain(String(MAX_AMOUNT));
        const after = await http(`${url}/world`);
        expect(after.json.content.version).toBe(before.json.content.version);
        // A price the sums can carry is taken.
        const fine = await http(`${url}/products/${item.product_id}`, 'PATCH', { body: { selling_price: 1000 } });
        expect(fine.status, fine.text.slice(0, 300)).toBe(200);
      } finally {
        await other.close();
      }
    } finally {
      await remove();
    }
  });
});
