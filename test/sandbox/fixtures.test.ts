// --data <dir>: fixture files replace seeded resources; they are validated at load against the spec's
// schemas, and an error names the file, the record (index and id) and the field. A resource exported from
// GET /__simulator/stores/{id}/world/{resource} loads back as is.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, backOffice, call, http, q, startSandbox, tempDir } from './helpers.js';
import { runCli } from '../helpers/cli-in-process.js';

let seeded: Workbench;
const exported: Record<string, any[]> = {};

beforeAll(async () => {
  seeded = await startSandbox({ webhooks: false });
  for (const r of ['products', 'categories', 'customers', 'carts', 'orders', 'countries', 'customer-groups', 'coupons', 'locations']) {
    exported[r] = (await http(`${backOffice(seeded)}/world/${r}`)).json;
  }
});
afterAll(async () => seeded?.close());

async function withFixtures(files: Record<string, unknown>, run: (wb: Workbench) => Promise<void>): Promise<void> {
  const { dir, remove } = await tempDir('sandbox-fixtures-');
  try {
    for (const [name, value] of Object.entries(files)) writeFileSync(path.join(dir, name), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    const wb = await startSandbox({ webhooks: false, sandbox: { fixturesDir: dir } });
    try {
      await run(wb);
    } finally {
      await wb.close();
    }
  } finally {
    await remove();
  }
}

async function loadError(files: Record<string, unknown>): Promise<string> {
  let message = '';
  await withFixtures(files, async () => undefined).catch((e: Error) => (message = e.message));
  return message;
}

describe('fixture files (--data)', () => {
  it('every exported resource loads back into the same world (its images served by the new workbench)', async () => {
    await withFixtures(Object.fromEntries(Object.entries(exported).map(([k, v]) => [`${k}.json`, v])), async (wb) => {
      // The files name the first workbench's images; loaded on another port, they name this one's.
      const here = (value: unknown) => JSON.parse(JSON.stringify(value).split(`${seeded.url}/__sandbox-assets/`).join(`${wb.url}/__sandbox-assets/`));
      expect(wb.url).not.toBe(seeded.url);
      for (const r of Object.keys(exported)) expect((await http(`${backOffice(wb)}/world/${r}`)).json, r).toEqual(here(exported[r]));
    });
  });

  it('a smaller catalog of my own: the lists, carts and orders are built from it', async () => {
    const mine = exported.products.filter((p) => p.bundle_items.length === 0 && p.category_ids.includes('cat_skincare')).slice(0, 6);
    const categories = exported.categories.filter((c) => c.id === 'cat_skincare' || c.parent_category_id === 'cat_skincare');
    await withFixtures({ 'products.json': mine, 'categories.json': categories }, async (wb) => {
      const { auth } = await anonymous(wb);
      const list = (await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 100 })}`, { headers: auth })).json.content;
      expect(list.products.map((p: any) => p.id)).toEqual(mine.map((p) => p.id));
      const world = (await http(`${backOffice(wb)}/world`)).json.content;
      expect(world.counts.categories).toBe(categories.length);
      const ids = new Set(mine.map((p) => p.id));
      for (const cart of world.carts) {
        for (const item of (await call(wb, 'getPosCart', 'GET', `/pos/carts/${cart.id}`, { headers: auth })).json.content.cart.cart_items) expect(ids.has(item.product_id)).toBe(true);
      }
    });
  });

  it.each<[string, () => Record<string, unknown>, (p: any[]) => string]>([
    [
      'a field of the wrong type',
      () => ({ 'products.json': exported.products.map((p, i) => (i === 3 ? { ...p, pricing: { ...p.pricing, selling_price: 'cheap' } } : p)) }),
      (p: any[]) => `products.json: record 3 (id "${p[3].id}"): field pricing.selling_price must be number`,
    ],
    [
      'a field of a variant',
      () => ({ 'products.json': exported.products.map((p, i) => (i === 5 ? { ...p, variants: p.variants.map((v: any, j: number) => (j === 0 ? { ...v, seo: { ...v.seo, keywords: 'one' } } : v)) } : p)) }),
      (p: any[]) => `products.json: record 5 (id "${p[5].id}"): field variants[0].seo.keywords must be array`,
    ],
    [
      'a missing required field',
      () => ({ 'customers.json': exported.customers.map((c, i) => (i === 1 ? (({ email: _e, ...rest }) => rest)(c) : c)) }),
      (_p: any[]) => `customers.json: record 1 (id "${exported.customers[1].id}"): field email is required`,
    ],
    [
      'a __proto__ key',
      () => ({ 'coupons.json': `[${JSON.stringify(exported.coupons[0])}, {"id": "cpn_X", "__proto__": {"polluted": true}}]` }),
      (_p: any[]) => 'coupons.json: record 1 (id "cpn_X"): field __proto__: "__proto__" is not an allowed property name',
    ],
    [
      'a nested constructor key',
      () => ({ 'orders.json': exported.orders.map((o, i) => (i === 2 ? { ...o, currency: { ...o.currency, constructor: { prototype: 1 } } } : o)) }),
      (_p: any[]) => `orders.json: record 2 (id "${exported.orders[2].order_number}"): field currency.constructor: "constructor" is not an allowed property name`,
    ],
    [
      'a category that does not exist',
      () => ({ 'products.json': exported.products.map((p, i) => (i === 0 ? { ...p, category_ids: ['cat_makeup', 'cat_moon'] } : p)) }),
      (_p: any[]) => 'products.json: record 0 (id "prd_7Q2K9X"): field category_ids[1] names no category ("cat_moon")',
    ],
    [
      'a cart item that is no variant of its product',
      () => ({ 'carts.json': exported.carts.map((c, i) => (i === 0 ? { ...c, cart_items: c.cart_items.map((it: any, j: number) => (j === 1 ? { ...it, variant_id: 'var_4M8T2C' } : it)) } : c)) }),
      (_p: any[]) => 'carts.json: record 0 (id "crt_8N2F6Q"): field cart_items[1].variant_id names no variant "var_4M8T2C" of product "prd_3H6V1B"',
    ],
    ['two default groups', () => ({ 'customer-groups.json': exported['customer-groups'].map((g) => ({ ...g, is_default: true })) }), () => 'customer-groups.json: exactly one group must have is_default true (found 4)'],
    ['a file that is not an array', () => ({ 'countries.json': { countries: [] } }), () => 'countries.json: must be a JSON array of records (got object)'],
    ['a file with a typo in its name', () => ({ 'customer_groups.json': [] }), () => 'unknown fixture file customer_groups.json'],
    ['JSON that does not parse', () => ({ 'locations.json': '[{"id": "loc_1",' }), () => 'locations.json: not valid JSON'],
  ])('refuses %s, naming the file, the record and the field', async (_name, files, want) => {
    expect(await loadError(files())).toContain(want(exported.products));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('the CLI stops with exit code 2 (bad input, as a bad flag) and that one line', async () => {
    const { dir, remove } = await tempDir('sandbox-fixtures-');
    try {
      writeFileSync(path.join(dir, 'countries.json'), JSON.stringify([{ ...exported.countries[0], country_code: 91 }]));
      const r = await runCli(['mock', '--port', '0', '--data', dir]);
      expect(r.code).toBe(2);
      const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
      expect(lines).toEqual(['storefront-contract mock: countries.json: record 0 (id "cty_IN"): field country_code must be string; see storefront-contract mock --help']);
    } finally {
      await remove();
    }
  });
});
