// Who a storefront token opens (issue #25, finding 5): a token issued for one store is refused on every
// other store's bearer operations, whoever would answer (the sandbox, or Prism for a `Prefer` control),
// since the pipeline's security step judges it before any control is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, http, startSandbox, storefront } from './helpers.js';

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
      expect(r.headers['www-authenticate']).toBe('Bearer');
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
