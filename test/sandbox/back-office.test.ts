// The back office under /__simulator/stores/{store_id}/... (outside the contract): its writes change what
// the storefront answers and raise the contract's events, built from the same records, delivered signed to
// the store's subscriptions and verified here by the package's receiver kit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, backOffice, call, http, q, startSandbox } from './helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

let wb: Workbench;
let auth: Record<string, string>;
let receiver: Receiver;
let world: any;

const EVENTS = ['order.created', 'order.updated', 'order.cancelled', 'product.created', 'product.updated', 'inventory.updated', 'customer.created'];

beforeAll(async () => {
  wb = await startSandbox();
  ({ auth } = await anonymous(wb));
  receiver = await startReceiver();
  await receiver.subscribe(wb, EVENTS);
  world = (await http(`${backOffice(wb)}/world`)).json.content;
});
afterAll(async () => {
  await wb?.close();
  await receiver?.close();
});

const stockOf = async (productId: string, variantId: string) =>
  (await call(wb, 'getVariant', 'GET', `/catalog/products/${productId}/variants/${variantId}?inventory=true`, { headers: auth })).json.content.variant.inventory.reduce((n: number, l: any) => n + l.stock_quantity, 0);

describe('the back office (outside the contract)', () => {
  it('says so on every answer, and GET /__simulator lists its routes', async () => {
    for (const [method, path] of [['GET', '/world'], ['GET', '/world/coupons'], ['GET', '/nope'], ['DELETE', '/world'], ['POST', '/orders']] as const) {
      const r = await http(`${backOffice(wb)}${path}`, method, method === 'POST' ? { body: {} } : {});
      expect(r.headers['x-simulator'], `${method} ${path}`).toBe('outside-contract');
    }
    const root = await http(`${wb.url}/__simulator`);
    expect(Object.keys(root.json.content.routes)).toEqual(expect.arrayContaining(['POST /__simulator/stores/{store_id}/events', 'GET /__simulator/stores/{store_id}/world', 'POST /__simulator/stores/{store_id}/orders']));
    expect((await http(`${backOffice(wb)}/world`, 'DELETE')).status).toBe(405);
    expect((await http(`${backOffice(wb)}/world/widgets`)).status).toBe(404);
  });

  it('placing an order: the order is listed, the cart is used up, stock leaves, order.created and inventory.updated arrive signed', async () => {
    const cart = world.carts.find((c: any) => c.items > 0 && c.customer_id && c.id !== 'crt_8N2F6Q' && c.active);
    const before = (await call(wb, 'getPosCart', 'GET', `/pos/carts/${cart.id}`, { headers: auth })).json.content.cart;
    const line = before.cart_items[0];
    const stock = await stockOf(line.product_id, line.variant_id);
    const placed = await http(`${backOffice(wb)}/orders`, 'POST', { body: { cart_id: cart.id } });
    expect(placed.status).toBe(201);
    const order = placed.json.content.order;
    expect(order).toMatchObject({ status: 'draft', payment_status: 'pending', grand_total: before.grand_total, user_id: cart.customer_id, order_items_count: before.cart_items_count });
    expect(placed.json.content.events.map((e: any) => e.event)).toEqual(['order.created', ...before.cart_items.map(() => 'inventory.updated')]);

    const listed = (await call(wb, 'listOrders', 'GET', `/orders${q({ user_id: cart.customer_id, sort_by: '{"order_date":"desc"}', limit: 1 })}`, { headers: auth })).json.content.orders[0];
    const { user_id: _u, ...contractOrder } = order;
    expect(listed).toEqual(contractOrder);
    const after = (await call(wb, 'getPosCart', 'GET', `/pos/carts/${cart.id}`, { headers: auth })).json.content.cart;
    expect(after).toMatchObject({ active: false, status: 'ordered' });
    expect(await stockOf(line.product_id, line.variant_id)).toBe(Math.max(0, stock - line.quantity));

    const created = await receiver.next('order.created', (b) => b.payload.properties.order_number === order.order_number);
    expect(created.body.payload.properties).toEqual(listed);
    expect(created.body.payload).toMatchObject({ store_id: 'demo-store', user_id: cart.customer_id, admin_user_id: null });
    const moved = await receiver.next('inventory.updated', (b) => b.payload.properties.variant_id === line.variant_id);
    expect(moved.body.payload.properties).toMatchObject({ previous_stock_quantity: stock, stock_quantity: Math.max(0, stock - line.quantity) });
    expect(receiver.rejected).toEqual([]);

    const again = await http(`${backOffice(wb)}/orders`, 'POST', { body: { cart_id: cart.id } });
    expect(again.status).toBe(409);
    expect(again.json.message).toContain(order.order_number);
  });

  it('moving an order through its statuses raises order.updated, and order.cancelled for a cancellation', async () => {
    const cart = world.carts.find((c: any) => c.items > 0 && c.active && c.id !== 'crt_8N2F6Q' && !c.customer_id);
    const placed = (await http(`${backOffice(wb)}/orders`, 'POST', { body: { cart_id: cart.id, user_id: 'usr_walkin', customer_note: 'Gift wrap' } })).json.content.order;
    expect(placed.customer_note).toBe('Gift wrap');
    const move = (status: string) => http(`${backOffice(wb)}/orders/${placed.order_number}/status`, 'POST', { body: { status } });
    const confirmed = await move('confirmed');
    expect(confirmed.status).toBe(200);
    expect(confirmed.json.content.order).toMatchObject({ status: 'confirmed', payment_status: 'paid', to_be_paid: 0 });
    expect(confirmed.json.content.order.payment_success_date).not.toBeNull();
    const updated = await receiver.next('order.updated', (b) => b.payload.properties.order_number === placed.order_number);
    expect(updated.body.payload).toMatchObject({ user_id: 'usr_walkin', admin_user_id: 'adm_sandbox' });
    expect((await move('delivered')).status).toBe(409);
    expect((await move('teleported')).status).toBe(400);
    const cancelled = await move('cancelled');
    expect(cancelled.json.content.order).toMatchObject({ status: 'cancelled', payment_status: 'refunded', has_refund: true });
    await receiver.next('order.cancelled', (b) => b.payload.properties.order_number === placed.order_number);
    expect(receiver.events.filter((e) => e.event === 'order.updated' && e.body.payload.properties.status === 'cancelled')).toEqual([]);
    const listed = (await call(wb, 'listOrders', 'GET', `/orders${q({ user_id: 'usr_walkin', status: 'cancelled' })}`, { headers: auth })).json.content.orders;
    expect(listed.map((o: any) => o.order_number)).toEqual([placed.order_number]);
    expect((await http(`${backOffice(wb)}/orders/SO-0000-000000/status`, 'POST', { body: { status: 'confirmed' } })).status).toBe(404);
  });

  it('creating and changing a product: the storefront answers with it at once, product.created / product.updated arrive', async () => {
    const listLips = async () => (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ category_id: 'cat_lips', limit: 100, sort_by: '{"name":"asc"}' })}`, { headers: auth })).json.content;
    const before = await listLips();
    const created = await http(`${backOffice(wb)}/products`, 'POST', {
      body: { name: 'Aam Papad Lip Tint', category_ids: ['cat_makeup', 'cat_lips'], selling_price: 354, tags: ['tint', 'mango'], variants: [{ name: 'Mango', stock: 12 }, { name: 'Jamun', selling_price: 399, stock: 0 }] },
    });
    expect(created.status).toBe(201);
    const product = created.json.content.product;
    expect(product).toMatchObject({ name: 'Aam Papad Lip Tint', has_variant: true, stock_available: true });
    const after = await listLips();
    expect(after.pagination.total_records).toBe(before.pagination.total_records + 1);
    expect(after.products.map((p: any) => p.id)).toContain(product.id);
    const jamun = product.variants[1];
    const variant = (await call(wb, 'getVariant', 'GET', `/catalog/products/${product.id}/variants/${jamun.id}`, { headers: auth })).json.content.variant;
    expect(variant).toMatchObject({ name: 'Jamun', stock_available: false, pricing: { selling_price: 399 } });
    const event = await receiver.next('product.created', (b) => b.payload.properties.id === product.id);
    expect(event.body.payload.properties.variants.map((v: any) => v.id)).toEqual(product.variants.map((v: any) => v.id));

    const patched = await http(`${backOffice(wb)}/products/${product.id}`, 'PATCH', { body: { selling_price: 299, name: 'Aam Papad Lip Tint Mini' } });
    expect(patched.status).toBe(200);
    const relisted = (await listLips()).products.find((p: any) => p.id === product.id);
    expect(relisted).toMatchObject({ name: 'Aam Papad Lip Tint Mini', pricing: { selling_price: 299 } });
    await receiver.next('product.updated', (b) => b.payload.properties.id === product.id && b.payload.properties.pricing.selling_price === 299);

    const hidden = await http(`${backOffice(wb)}/products/${product.id}`, 'PATCH', { body: { active: false } });
    expect(hidden.status).toBe(200);
    expect((await listLips()).pagination.total_records).toBe(before.pagination.total_records);
    const bad = await http(`${backOffice(wb)}/products`, 'POST', { body: { name: '', category_ids: ['cat_nope'], selling_price: -1, colour: 'red' } });
    expect(bad.status).toBe(400);
    // The document (spec/workbench/openapi.yaml) refuses the shapes first, each field named; then the handler what only the world knows.
    expect(bad.json.content.error.details.map((d: any) => d.name)).toEqual(['colour', 'name', 'selling_price']);
    const unknownCategory = await http(`${backOffice(wb)}/products`, 'POST', { body: { name: 'Moon Dust', category_ids: ['cat_nope'], selling_price: 10 } });
    expect(unknownCategory.status).toBe(400);
    expect(unknownCategory.json.content.error.details.map((d: any) => d.name)).toEqual(['category_ids.0']);
  });

  it('moving stock raises inventory.updated and the storefront shows it', async () => {
    const set = await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2D', stock_quantity: 0 } });
    expect(set.status).toBe(200);
    const variant = (await call(wb, 'getVariant', 'GET', '/catalog/products/prd_7Q2K9X/variants/var_4M8T2D?inventory=true', { headers: auth })).json.content.variant;
    expect(variant.stock_available).toBe(false);
    expect(variant.inventory.every((l: any) => l.stock_quantity === 0)).toBe(true);
    const event = await receiver.next('inventory.updated', (b) => b.payload.properties.variant_id === 'var_4M8T2D' && b.payload.properties.stock_quantity === 0);
    expect(event.body.payload.properties).toMatchObject({ previous_stock_quantity: 87, stock_available: false, sku: 'KN-LIP-MAT-NR' });
    const added = await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2D', adjust: 5 } });
    expect(added.json.content).toMatchObject({ previous_stock_quantity: 0, stock_quantity: 5 });
    expect((await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2D', adjust: -6 } })).status).toBe(409);
    expect((await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: 'prd_7Q2K9X' } })).status).toBe(400);
    expect((await http(`${backOffice(wb)}/inventory`, 'POST', { body: { product_id: 'prd_nope', stock_quantity: 1 } })).status).toBe(404);
  });

  it('reset restores the seed; issued tokens keep working', async () => {
    const modified = (await http(`${backOffice(wb)}/world/products`)).text;
    const reset = await http(`${backOffice(wb)}/reset`, 'POST');
    expect(reset.status).toBe(200);
    expect(reset.headers['x-simulator']).toBe('outside-contract');
    expect((await http(`${backOffice(wb)}/world/products`)).text).not.toBe(modified);
    const fresh = await startSandbox({ webhooks: false });
    // Image URLs carry each workbench's own address; the records are otherwise the same.
    const read = async (w: Workbench, resource: string) => (await http(`${backOffice(w)}/world/${resource}`)).text.split(w.url).join('http://sandbox');
    try {
      expect(await read(wb, 'products')).toBe(await read(fresh, 'products'));
      expect(await read(wb, 'orders')).toBe(await read(fresh, 'orders'));
    } finally {
      await fresh.close();
    }
    const cart = world.carts.find((c: any) => c.items > 0 && c.customer_id && c.id !== 'crt_8N2F6Q');
    expect((await call(wb, 'getPosCart', 'GET', `/pos/carts/${cart.id}`, { headers: auth })).json.content.cart.active).toBe(true);
    expect(await stockOf('prd_7Q2K9X', 'var_4M8T2D')).toBe(87);
  });
});
