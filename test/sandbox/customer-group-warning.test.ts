// An `x-customer-group-id` that names no group of the store prices like no header at all (the
// customer-group rule), silently by the contract. The sandbox says so outside the contract: an
// `X-Sandbox-Warning` header naming the id and the store's groups (exposed to browser apps through CORS)
// on the operations that read the header, and a warning line under the request in its log. The answer's
// body does not change, and a known group or no header gets no warning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, http, startSandbox, storefront } from './helpers.js';
import type { Workbench } from '../../workbench/index.js';

let wb: Workbench;
let auth: Record<string, string>;
let log = '';
const GROUPS = 'cgrp_default, cgrp_wholesale, cgrp_gold, cgrp_staff';

beforeAll(async () => {
  wb = await startSandbox({ webhooks: false, logSink: (text) => (log += text) });
  ({ auth } = await anonymous(wb));
});
afterAll(async () => wb?.close());

const VARIANT = '/catalog/products/prd_7Q2K9X/variants/var_4M8T2C';
const get = (path: string, group?: string) => http(`${storefront(wb)}${path}`, 'GET', { headers: { ...auth, ...(group === undefined ? {} : { 'x-customer-group-id': group }) } });

describe('an unknown customer group', () => {
  it.each([
    ['listProducts', '/catalog/products?limit=3'],
    ['getVariant', VARIANT],
    ['listSimilarProducts', '/pos/catalog/products/similar?product_id=prd_7Q2K9X&limit=3'],
  ])('%s: warns in a header outside the contract, and answers as with no header', async (_operation, path) => {
    const [unknown, none] = await Promise.all([get(path, 'cg_wholesale'), get(path)]);
    expect(unknown.status).toBe(200);
    expect(unknown.headers['x-sandbox-warning']).toBe(`unknown customer group "cg_wholesale"; known: ${GROUPS}`);
    expect(unknown.headers['access-control-expose-headers']).toBe('X-Sandbox-Warning');
    expect(unknown.json).toEqual(none.json);
    expect(none.headers['x-sandbox-warning']).toBeUndefined();
  });

  it('is logged under its request', async () => {
    await get('/catalog/products?limit=1', 'cg_gold');
    // The log is written once per turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toMatch(/GET \/api\/v1\/demo-store\/storefront\/catalog\/products\?limit=1 200 [\d.]+ms\n {2}warning: unknown customer group "cg_gold"; known: cgrp_default, /);
  });

  it('rides on a failure too (an unknown variant), and names a long or odd id printably and bounded', async () => {
    const missing = await get('/catalog/products/prd_7Q2K9X/variants/var_nope', 'x'.repeat(500));
    expect(missing.status).toBe(404);
    expect(missing.headers['x-sandbox-warning']).toBe(`unknown customer group "${'x'.repeat(64)}..."; known: ${GROUPS}`);
    const quoted = await get(VARIANT, 'gold "vip"\\');
    expect(quoted.headers['x-sandbox-warning']).toBe(`unknown customer group "gold \\"vip\\"\\\\"; known: ${GROUPS}`);
  });
});

describe('no warning', () => {
  it('for a group of the store, which prices its own way', async () => {
    const [wholesale, none] = await Promise.all([get(VARIANT, 'cgrp_wholesale'), get(VARIANT)]);
    expect(wholesale.headers['x-sandbox-warning']).toBeUndefined();
    expect(wholesale.json.content.variant.pricing.selling_price).not.toBe(none.json.content.variant.pricing.selling_price);
  });

  it('on an operation that does not read the header', async () => {
    const countries = await get('/common/countries', 'cg_wholesale');
    expect(countries.status).toBe(200);
    expect(countries.headers['x-sandbox-warning']).toBeUndefined();
  });
});
