// A store whose kept writes were changed outside the workbench (a hand edit of workbench.sqlite): its
// requests are answered 500 naming the store, the file, the write and the way out (a reset), instead of
// "The mock failed to build a response; see its log." on every request; other stores are not affected,
// and a reset through the back office starts the store again from its seeded world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Workbench } from '../../workbench/index.js';
import { openDatabase } from '../../workbench/store/sqlite.js';
import { anonymous, backOffice, http, startSandbox, storefront, tempDir } from '../sandbox/helpers.js';

let data: { dir: string; remove: () => Promise<void> };
let wb: Workbench | undefined;
const STORE = 'edited-store';
const start = () => startSandbox({ webhooks: { dataDir: data.dir }, sandbox: { dataDir: data.dir } });

beforeAll(async () => {
  data = await tempDir('hand-edited-');
  wb = await start();
  const moved = await http(`${backOffice(wb, STORE)}/inventory`, 'POST', { body: { product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C', stock_quantity: 7 } });
  expect(moved.status).toBe(200);
  await wb.close();
  const db = openDatabase(path.join(data.dir, 'workbench.sqlite'));
  expect(db.prepare(`UPDATE world_writes SET entry = '{"op":"put","puts":[{' WHERE store_id = ?`).run(STORE).changes).toBe(1);
  db.close();
  wb = await start();
});
afterAll(async () => {
  await wb?.close();
  await data?.remove();
});

describe('a hand-edited write of a store', () => {
  it("is named, with the way out, on the store's requests; other stores answer", async () => {
    const world = await http(`${backOffice(wb!, STORE)}/world`);
    expect(world.status).toBe(500);
    expect(world.json.content.error.code).toBe('internal_error');
    expect(world.json.message).toContain(`The writes kept for store ${STORE} in ${path.join(data.dir, 'workbench.sqlite')} cannot be read (its write 1: `);
    expect(world.json.message).toContain(`they were changed outside the workbench. POST /__simulator/stores/${STORE}/reset starts the store again from its seeded world`);
    const other = await http(`${backOffice(wb!, 'another-store')}/world`);
    expect(other.status).toBe(200);
  });

  it('a reset starts the store again; its storefront answers', async () => {
    const reset = await http(`${backOffice(wb!, STORE)}/reset`, 'POST');
    expect(reset.status, reset.text).toBe(200);
    const { auth } = await anonymous(wb!, STORE);
    const products = await http(`${storefront(wb!, STORE)}/catalog/products?limit=1`, 'GET', { headers: auth });
    expect(products.status).toBe(200);
  });
});
