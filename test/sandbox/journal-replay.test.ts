// The store's entries (a stock move as the variant's lots, not the product; a store's entries folded past
// FOLD_EVERY) rebuild exactly the world the live process had: a script of mixed writes
// (products created and renamed, stock moved one variant and all at once, a fresh lot made, customers,
// carts created, changed, deleted and re-created with the same id, an order placed and moved, a reset, a
// sign-in) is run against a real workbench; its worlds (every resource in fixture form and the summary with
// its version) are compared, as text, with the worlds after a restart and with folds during the writes. A
// version-1 journal of 0.2.x (whole records) is taken in by the upgrade, and folded with the writes after it.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import type { Workbench } from '../../workbench/index.js';
import { closeOnce } from '../helpers/close-once.js';
import { anonymous, backOffice, call, http, startSandbox } from './helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';
import { storeRows } from '../helpers/store-files.js';
import { FOLD_EVERY } from '../../workbench/sandbox/sandbox.js';

const { defer, tempDir } = cleanupAfterEach();

const dir = () => tempDir('replay-');

async function start(dataDir: string): Promise<Workbench> {
  // One held world: every store is evicted and rebuilt from the store while the script runs too.
  const wb = await startSandbox({ webhooks: false, sandbox: { dataDir, maxWorlds: 1, log: () => {} } });
  closeOnce(wb);
  defer(() => wb.close());
  return wb;
}

const STORES = ['demo-store', 'replay-b'];
const CUSTOMER = {
  business: { business_type: 'salon', name: 'Replay Salon', pan_number: 'AAKFD1234M', gstin: '29AAKFD1234M1Z3' },
  address: { first_name: 'Re', last_name: 'Play', country_code: '+91', phone: '9833333333', email: 'replay@example.in' },
};

async function ok(wb: Workbench, method: string, pathAndQuery: string, body?: unknown, store = 'demo-store'): Promise<any> {
  const r = await http(`${backOffice(wb, store)}${pathAndQuery}`, method, body === undefined ? {} : { body });
  expect(r.status, `${method} ${pathAndQuery}: ${r.text.slice(0, 300)}`).toBeLessThan(300);
  return r.json;
}

/** Mixed writes through every kind of entry. */
async function script(wb: Workbench): Promise<void> {
  const world = (await ok(wb, 'GET', '/world')).content;
  const several = world.products.several_variants[0];
  const category = world.categories[0].id;
  await ok(wb, 'POST', '/products', { id: 'prd_REPLAY', name: 'Replay Balm', category_ids: [category], selling_price: 199, variants: [{ name: 'Small', stock: 5 }, { name: 'Large', stock: 0 }] });
  for (let i = 0; i < 9; i++) await ok(wb, 'POST', '/inventory', { product_id: several.id, variant_id: several.variants[i % several.variants.length], adjust: i % 3 === 2 ? -1 : 3 });
  await ok(wb, 'POST', '/inventory', { product_id: several.id, all_variants: true, stock_quantity: 7 });
  const large = (await ok(wb, 'GET', '/world/products')).find((p: any) => p.id === 'prd_REPLAY').variants[1].id;
  // A variant without lots gets a fresh one (its batch number is random: the journal must keep it).
  await ok(wb, 'POST', '/inventory', { product_id: 'prd_REPLAY', variant_id: large, adjust: 4 });
  await ok(wb, 'PATCH', '/products/prd_7Q2K9X', { name: 'Renamed Lipstick', selling_price: 333 });
  await ok(wb, 'POST', '/inventory', { product_id: 'prd_7Q2K9X', all_variants: true, adjust: 2 });
  const me = await anonymous(wb);
  await call(wb, 'createCustomer', 'POST', '/customers', { headers: me.auth, body: CUSTOMER });
  await ok(wb, 'POST', '/customers/cst_9XK2PL/sign-in');
  const deletable = world.carts.find((c: any) => c.active && c.id !== 'crt_8N2F6Q').id;
  await ok(wb, 'POST', '/carts', { id: 'crt_REPLAY1', customer_id: 'cst_9XK2PL', cart_items: [{ product_id: 'prd_REPLAY', variant_id: large, quantity: 2 }] });
  await ok(wb, 'PATCH', '/carts/crt_REPLAY1', { customer_note: 'ring twice' });
  await ok(wb, 'DELETE', `/carts/${deletable}`);
  await ok(wb, 'POST', '/carts', { id: 'crt_REPLAY2', customer_id: 'cst_9XK2PL' });
  await ok(wb, 'POST', '/carts', { id: deletable, customer_id: 'cst_9XK2PL', cart_items: [{ product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C', quantity: 1 }] });
  await ok(wb, 'POST', '/carts', { id: 'crt_REPLAY3' });
  await ok(wb, 'DELETE', '/carts/crt_REPLAY3');
  const order = (await ok(wb, 'POST', '/orders', { cart_id: 'crt_REPLAY1' })).content.order.order_number;
  await ok(wb, 'POST', `/orders/${order}/status`, { status: 'confirmed' });
  await ok(wb, 'POST', '/orders', { cart_id: 'crt_8N2F6Q' });
  // Another store: written, reset, written again.
  await ok(wb, 'PATCH', '/products/prd_7Q2K9X', { name: 'Gone after reset' }, 'replay-b');
  await ok(wb, 'POST', '/reset', undefined, 'replay-b');
  await ok(wb, 'PATCH', '/products/prd_7Q2K9X', { name: 'After reset' }, 'replay-b');
  await ok(wb, 'POST', '/inventory', { product_id: several.id, all_variants: true, adjust: 1 }, 'replay-b');
}

/** Every store's world as text: the summary (with its version) and every resource in fixture form; the port scrubbed. */
async function worlds(wb: Workbench): Promise<string> {
  const out: unknown[] = [];
  for (const store of STORES) {
    out.push((await ok(wb, 'GET', '/world', undefined, store)).content);
    for (const resource of ['products', 'customers', 'carts', 'orders']) out.push(await ok(wb, 'GET', `/world/${resource}`, undefined, store));
  }
  return JSON.stringify(out).replaceAll(wb.url, 'ORIGIN');
}

describe('replay gives the live world', () => {
  it('after a restart, with worlds evicted and rebuilt throughout, and with every store folded past FOLD_EVERY writes', async () => {
    const a = await dir();
    const live = await start(a);
    await script(live);
    const expected = await worlds(live);
    await live.close();

    // Stock moves are kept as moves: small entries, no product in them.
    const entries = storeRows<{ entry: string }>(a, `SELECT entry FROM world_writes WHERE store_id = 'demo-store' ORDER BY seq`).map((r) => r.entry);
    const moves = entries.filter((l) => l.includes('"kind":"stock"') && !l.includes('"kind":"order"'));
    expect(moves.length).toBeGreaterThanOrEqual(12);
    for (const line of moves) expect(line.length, line.slice(0, 200)).toBeLessThan(1000);
    // The reset store keeps only what came after its reset.
    expect(storeRows(a, `SELECT entry FROM world_writes WHERE store_id = 'replay-b'`).map((r) => String(r.entry)).join('\n')).not.toContain('Gone after reset');
    expect(statSync(path.join(a, 'workbench.sqlite')).mode & 0o777).toBe(0o600);

    const replayed = await start(a);
    expect(await worlds(replayed)).toBe(expected);
    await replayed.close();

    // Past FOLD_EVERY writes a store's entries are folded into its changes (in the write's transaction): few rows, the same world.
    const b = await dir();
    const busy = await start(b);
    await script(busy);
    for (let i = 0; i < FOLD_EVERY + 10; i++) await ok(busy, 'POST', '/inventory', { product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C', adjust: i % 2 ? -1 : 2 });
    const busyWorld = await worlds(busy);
    expect(busy.sandbox!.sandbox.log.count('demo-store')).toBeLessThan(FOLD_EVERY);
    await busy.close();
    const restarted = await start(b);
    expect(await worlds(restarted)).toBe(busyWorld);
  }, hangGuard(90_000));

  it('a version-1 journal of 0.2.x (whole records) is taken in by the upgrade, and folded with the writes after it', async () => {
    const data = await dir();
    const first = await startSandbox({ webhooks: false, sandbox: { maxWorlds: 1, log: () => {} } });
    const product = structuredClone(first.sandbox!.sandbox.world('demo-store').products.get('prd_7Q2K9X')!);
    await first.close();
    // What the sandbox wrote before version 2: the whole product for a rename or a stock move.
    product.name = 'Version One';
    product.variants[0].inventory = [{ lot_batch: 'V1-LOT', manufacturer: 'Old Format', mfg_date: '2026-01-01', exp_date: '2028-01-01', stock_quantity: 41 }];
    writeFileSync(path.join(data, 'sandbox.jsonl'), `${JSON.stringify({ v: 1, store: 'demo-store', at: '2026-01-01T00:00:00Z', op: 'put', puts: [{ kind: 'product', record: product }] })}\n`, { mode: 0o600 });
    const second = await start(data);
    const read = (await ok(second, 'GET', '/world/products')).find((p: any) => p.id === 'prd_7Q2K9X');
    expect(read.name).toBe('Version One');
    expect(read.variants[0].inventory).toEqual([expect.objectContaining({ lot_batch: 'V1-LOT', stock_quantity: 41 })]);
    await ok(second, 'POST', '/inventory', { product_id: 'prd_7Q2K9X', variant_id: read.variants[0].id, adjust: 1 });
    const expected = await worlds(second);
    await second.close();
    expect(readdirSync(data).filter((f) => f.startsWith('sandbox'))).toEqual([]);
    expect(readdirSync(path.join(data, '0.2-files'))).toEqual(['sandbox.jsonl']);
    const third = await start(data);
    expect(await worlds(third)).toBe(expected);
    expect((await ok(third, 'GET', '/world/products')).find((p: any) => p.id === 'prd_7Q2K9X').variants[0].inventory[0].stock_quantity).toBe(42);
  }, hangGuard(30_000));

  it('without --data-dir: a store past FOLD_EVERY writes is folded in memory, and its rebuilt world is the live one', async () => {
    const wb = await startSandbox({ webhooks: false, sandbox: { maxWorlds: 1 } });
    defer(() => wb.close());
    await ok(wb, 'PATCH', '/products/prd_7Q2K9X', { name: 'Folded in memory' });
    for (let i = 0; i < FOLD_EVERY + 44; i++) await ok(wb, 'POST', '/inventory', { product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C', adjust: i % 2 ? -1 : 2 });
    const live = await worlds(wb);
    // Entries of the store: folded once past FOLD_EVERY, so fewer than the writes.
    expect(wb.sandbox!.sandbox.log.count('demo-store')).toBeLessThan(100);
    // Another store evicts it; reading it again rebuilds it from the folded entries.
    await ok(wb, 'GET', '/world', undefined, 'elsewhere');
    expect(await worlds(wb)).toBe(live);
  }, hangGuard(60_000));
});
