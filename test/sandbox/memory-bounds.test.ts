// The sandbox's memory is bounded: at most `maxWorlds` worlds are held, the least recently used written
// world is evicted and rebuilt from seed plus journal (the file with --data-dir, the in-memory journal
// without) with every write still there; and each world's answer cache is bounded by bytes, with long
// keys (a 1 MB pincode is valid per schema) kept as hashes.
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { AnswerCache } from '../../workbench/sandbox/world.js';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, backOffice, call, http, startSandbox } from './helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';

const { defer, tempDir } = cleanupAfterEach();

async function start(options: { dataDir?: string; maxWorlds: number }): Promise<Workbench> {
  const wb = await startSandbox({ webhooks: false, sandbox: options });
  defer(() => wb.close());
  return wb;
}

describe('worlds are evicted and rebuilt', () => {
  for (const persistent of [false, true]) {
    it(`${persistent ? 'with' : 'without'} --data-dir: 12 stores written once through 3 held worlds, every write read back`, async () => {
      let dataDir: string | undefined;
      if (persistent) {
        const data = await tempDir('evict-');
        dataDir = data;
      }
      const wb = await start({ dataDir, maxWorlds: 3 });
      const stores = Array.from({ length: 12 }, (_, i) => `evict-${i}`);
      const customers = new Map<string, string>();
      for (const store of stores) {
        const renamed = await http(`${backOffice(wb, store)}/products/prd_7Q2K9X`, 'PATCH', { body: { name: `Lipstick of ${store}` } });
        expect(renamed.status).toBe(200);
        const me = await anonymous(wb, store);
        const created = await call(wb, 'createCustomer', 'POST', '/customers', {
          store,
          headers: me.auth,
          body: { business: { business_type: 'salon', name: store, pan_number: 'AAKFD1234M', gstin: '29AAKFD1234M1Z3' }, address: { first_name: 'Ev', last_name: 'Ict', country_code: '+91', phone: '9811111111', email: 'ev@example.in' } },
        });
        customers.set(store, created.json.content.customer_detail.id);
        expect(wb.sandbox!.sandbox.heldWorlds).toBeLessThanOrEqual(3);
      }
      for (const store of stores) {
        const me = await anonymous(wb, store);
        const first = await call(wb, 'listProducts', 'GET', '/catalog/products?limit=1', { store, headers: me.auth });
        expect(first.json.content.products[0]).toMatchObject({ id: 'prd_7Q2K9X', name: `Lipstick of ${store}` });
        expect((await call(wb, 'listCustomerCards', 'GET', `/customers/${customers.get(store)}/cards`, { store, headers: me.auth })).status).toBe(200);
      }
      expect(wb.sandbox!.sandbox.heldWorlds).toBeLessThanOrEqual(3);
      // A reset after eviction: the store is its seed again, and stays so when rebuilt.
      await http(`${backOffice(wb, stores[0])}/reset`, 'POST');
      for (const store of stores.slice(1, 5)) await http(`${backOffice(wb, store)}/world`);
      const me = await anonymous(wb, stores[0]);
      expect((await call(wb, 'listProducts', 'GET', '/catalog/products?limit=1', { store: stores[0], headers: me.auth })).json.content.products[0].name).toBe('Matte Lipstick');
    }, hangGuard(60_000));
  }
});

describe('answer caches are bounded by bytes', () => {
  it('an AnswerCache keeps at most its bytes, hashes long keys and never keeps an answer over half its budget', () => {
    const cache = new AnswerCache(64 * 1024);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, Buffer.alloc(4096));
    expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.get('k99')).toBeDefined();
    expect(cache.get('k0')).toBeUndefined();
    const long = 'x'.repeat(100_000);
    cache.set(long, Buffer.alloc(10));
    expect(cache.get(long)?.length).toBe(10);
    expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    cache.set('huge', Buffer.alloc(40 * 1024));
    expect(cache.get('huge')).toBeUndefined();
  });

  it('a sandbox with answerCacheBytes 0 builds every answer (a write still shows at once); the default keeps them', async () => {
    for (const [answerCacheBytes, kept] of [[0, false], [undefined, true]] as const) {
      const wb = await startSandbox({ webhooks: false, sandbox: { answerCacheBytes } });
      defer(() => wb.close());
      const { auth } = await anonymous(wb);
      const first = await call(wb, 'listProducts', 'GET', '/catalog/products?limit=5', { headers: auth });
      const again = await call(wb, 'listProducts', 'GET', '/catalog/products?limit=5', { headers: auth });
      expect(again.text).toBe(first.text);
      const world = wb.sandbox!.sandbox.world('demo-store');
      expect(world.cache.bytes > 0, `answerCacheBytes ${answerCacheBytes}`).toBe(kept);
    }
  });

  it('fulfillment requests with 256 KB pincodes (valid per schema) do not grow the cache past its bound', async () => {
    const wb = await start({ maxWorlds: 2 });
    const me = await anonymous(wb);
    const world = wb.sandbox!.sandbox.world('demo-store');
    for (let i = 0; i < 40; i++) {
      const pincode = `${String(i).padStart(6, '0')}${'9'.repeat(256 * 1024)}`;
      const r = await http(`${wb.url}/api/v1/demo-store/storefront/shipping/fulfillment-options`, 'POST', { headers: me.auth, body: { cart_id: 'crt_8N2F6Q', delivery_pincode: pincode } });
      expect(r.status).toBe(200);
    }
    expect(world.cache.bytes).toBeGreaterThan(0);
    expect(world.cache.bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
  }, hangGuard(60_000));
});
