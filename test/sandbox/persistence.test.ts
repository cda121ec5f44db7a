// With --data-dir the sandbox's writes (customers, orders, product and stock changes, anonymous identities,
// resets) are journaled, fsync'd before the answer, and replayed at the next start; without it they live
// in memory. The journal is 0600, holds no usable token, tolerates a last line cut by a crash and refuses
// anything else it cannot read. A process killed with SIGKILL right after answering loses nothing.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { storeBytes } from '../helpers/store-files.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { mockCli, stopChild } from '../helpers/mock-cli.js';
import type { Workbench } from '../../workbench/index.js';
import { closeOnce } from '../helpers/close-once.js';
import { anonymous, backOffice, call, http, KEY, q, startSandbox } from './helpers.js';

const { defer, tempDir } = cleanupAfterEach();

const dir = () => tempDir('sandbox-');

async function start(dataDir?: string): Promise<Workbench> {
  const wb = await startSandbox({ webhooks: { timeScale: 0.01, dataDir }, sandbox: { dataDir } });
  closeOnce(wb);
  defer(() => wb.close());
  return wb;
}

const CUSTOMER = {
  business: { business_type: 'salon', name: 'Durable Salon', pan_number: 'AAKFD1234M', gstin: '29AAKFD1234M1Z3' },
  address: { first_name: 'Dura', last_name: 'Bell', country_code: '+91', phone: '9822222222', email: 'dura@example.in' },
};

describe('persistence', () => {
  it('--data-dir: customers, orders, product and stock changes and tokens survive a restart', async () => {
    const data = await dir();
    const first = await start(data);
    const me = await anonymous(first);
    const customer = (await call(first, 'createCustomer', 'POST', '/customers', { headers: me.auth, body: CUSTOMER })).json.content.customer_detail;
    const world = (await http(`${backOffice(first)}/world`)).json.content;
    const cart = world.carts.find((c: any) => c.items > 0 && c.customer_id && c.id !== 'crt_8N2F6Q');
    const order = (await http(`${backOffice(first)}/orders`, 'POST', { body: { cart_id: cart.id } })).json.content.order;
    await http(`${backOffice(first)}/orders/${order.order_number}/status`, 'POST', { body: { status: 'confirmed' } });
    await http(`${backOffice(first)}/products/prd_5T9W3N`, 'PATCH', { body: { selling_price: 1099 } });
    await http(`${backOffice(first)}/inventory`, 'POST', { body: { product_id: 'prd_2C4R8J', stock_quantity: 3 } });
    const created = (await http(`${backOffice(first)}/products`, 'POST', { body: { name: 'Durable Balm', category_ids: ['cat_lips'], selling_price: 199 } })).json.content.product;
    await first.close();

    const file = path.join(data, 'workbench.sqlite');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(storeBytes(data)).not.toContain(me.token);

    const second = await start(data);
    expect((await call(second, 'listCustomerCards', 'GET', `/customers/${customer.id}/cards`, { headers: me.auth })).json.content.cards).toEqual([]);
    const orders = (await call(second, 'listOrders', 'GET', `/orders${q({ user_id: cart.customer_id, limit: 50 })}`, { headers: me.auth })).json.content.orders;
    expect(orders.find((o: any) => o.order_number === order.order_number)).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
    expect((await call(second, 'getPosCart', 'GET', `/pos/carts/${cart.id}`, { headers: me.auth })).json.content.cart.active).toBe(false);
    const oil = (await call(second, 'getVariant', 'GET', '/catalog/products/prd_5T9W3N/variants/var_5T9W3P', { headers: me.auth })).json.content.variant;
    expect(oil.pricing.selling_price).toBe(1099);
    const kajal = (await call(second, 'getVariant', 'GET', '/catalog/products/prd_2C4R8J/variants/var_2C4R8K?inventory=true', { headers: me.auth })).json.content.variant;
    expect(kajal.inventory.reduce((n: number, l: any) => n + l.stock_quantity, 0)).toBe(3);
    expect((await call(second, 'getVariant', 'GET', `/catalog/products/${created.id}/variants/${created.variants[0].id}`, { headers: me.auth })).status).toBe(200);
    // The next order number continues after the journaled one.
    const next = world.carts.find((c: any) => c.items > 0 && c.id !== cart.id && c.id !== 'crt_8N2F6Q' && c.customer_id);
    const again = (await http(`${backOffice(second)}/orders`, 'POST', { body: { cart_id: next.id } })).json.content.order;
    expect(Number(again.order_number.slice(-6))).toBe(Number(order.order_number.slice(-6)) + 1);
  });

  it('without --data-dir the world lives in memory only', async () => {
    const first = await start();
    const me = await anonymous(first);
    const customer = (await call(first, 'createCustomer', 'POST', '/customers', { headers: me.auth, body: CUSTOMER })).json.content.customer_detail;
    await first.close();
    const second = await start();
    const other = await anonymous(second);
    expect((await call(second, 'listCustomerCards', 'GET', `/customers/${customer.id}/cards`, { headers: other.auth })).status).toBe(404);
    expect((await call(second, 'listCountries', 'GET', '/common/countries', { headers: me.auth })).status).toBe(401);
  });

  it('a reset is journaled too: after a restart the store is the seed again', async () => {
    const data = await dir();
    const first = await start(data);
    await http(`${backOffice(first)}/products/prd_7Q2K9X`, 'PATCH', { body: { name: 'Renamed' } });
    await http(`${backOffice(first)}/reset`, 'POST');
    await http(`${backOffice(first)}/products/prd_3H6V1B`, 'PATCH', { body: { name: 'Renamed after reset' } });
    await first.close();
    const second = await start(data);
    const me = await anonymous(second);
    const names = (await call(second, 'listProducts', 'GET', '/catalog/products?limit=2', { headers: me.auth })).json.content.products.map((p: any) => p.name);
    expect(names).toEqual(['Matte Lipstick', 'Renamed after reset']);
  });

  it('50 concurrent POST /customers: 50 distinct customers, all kept', async () => {
    const data = await dir();
    const first = await start(data);
    const me = await anonymous(first);
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(first, 'createCustomer', 'POST', '/customers', { headers: me.auth, body: { ...CUSTOMER, address: { ...CUSTOMER.address, phone: `98${String(i).padStart(8, '0')}` } } })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
    const ids = replies.map((r) => r.json.content.customer_detail.id);
    expect(new Set(ids).size).toBe(50);
    await first.close();
    const second = await start(data);
    const listed = new Set((await http(`${backOffice(second)}/world/customers`)).json.map((c: any) => c.id));
    expect(ids.filter((id) => !listed.has(id))).toEqual([]);
  });

  it('0.2.x: the upgrade drops a last journal line cut short by a crash, and refuses a corrupted one with its line number', async () => {
    const data = await dir();
    const good = `${JSON.stringify({ v: 2, store: 'demo-store', at: '2026-01-01T00:00:00Z', op: 'reset' })}\n`;
    const journal = path.join(data, 'sandbox.jsonl');
    // Not JSON with good lines after it: the start stops, naming the line and the known-good prefix.
    writeFileSync(journal, `${good}not json\n${good}`, { mode: 0o600 });
    const refused = startSandbox({ webhooks: false, sandbox: { dataDir: data } });
    await expect(refused).rejects.toThrow(/sandbox\.jsonl line 2 is not valid JSON/);
    await expect(refused).rejects.toThrow(`are good: keep them with \`truncate -s ${Buffer.byteLength(good)} `);
    writeFileSync(journal, `${good}{"v":1,"store":"demo-store","op":"put","puts":[],"__proto__":{"polluted":true}}\n`);
    await expect(startSandbox({ webhooks: false, sandbox: { dataDir: data } })).rejects.toThrow(/refused key __proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A last line cut short (never answered): dropped; the rest is taken in.
    writeFileSync(journal, `${good}{"v":1,"store":"demo-store","at":"2026-01-01T00:00:00Z","op":"put","puts":[{"kind":"cust`);
    const notes: string[] = [];
    const upgraded = await startSandbox({ webhooks: false, sandbox: { dataDir: data, log: (l) => notes.push(l) } });
    try {
      expect(notes.join('\n')).toMatch(/upgraded the data directory .* from 0\.2\.x into workbench\.sqlite: the sandbox's journal/);
      expect(readFileSync(path.join(data, '0.2-files', 'sandbox.jsonl'), 'utf8')).toBe(good);
      expect((await http(`${backOffice(upgraded)}/world`)).status).toBe(200);
    } finally {
      await upgraded.close();
    }
  });
});

describe('kill -9', () => {
  const mock = mockCli();
  const cli = (dataDir: string) => mock.start(['--port', '0', '--quiet', '--data-dir', dataDir], 'world and back office');

  it('loses no acknowledged write when the process is killed right after answering', async () => {
    const data = await dir();
    const first = await cli(data);
    const base = `${first.url}/api/v1/demo-store/storefront`;
    const anon = await http(`${base}/auth/anonymous`, 'POST', { headers: KEY });
    const auth = { authorization: `Bearer ${anon.json.content.access_token}` };
    const created = await http(`${base}/customers`, 'POST', { headers: auth, body: CUSTOMER });
    expect(created.status).toBe(201);
    const placed = await http(`${first.url}/__simulator/stores/demo-store/orders`, 'POST', { body: { cart_id: 'crt_8N2F6Q' } });
    expect(placed.status).toBe(201);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;

    const second = await cli(data);
    const base2 = `${second.url}/api/v1/demo-store/storefront`;
    const cards = await http(`${base2}/customers/${created.json.content.customer_detail.id}/cards`, 'GET', { headers: auth });
    expect(cards.status).toBe(200);
    const orders = await http(`${base2}/orders${q({ user_id: 'cst_9XK2PL', limit: 50 })}`, 'GET', { headers: auth });
    expect(orders.json.content.orders.map((o: any) => o.order_number)).toContain(placed.json.content.order.order_number);
    await stopChild(second.child);
  });
});
