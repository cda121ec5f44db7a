// The workbench API's typed client (`createWorkbenchClient` of storefront-contract/workbench): openapi-fetch
// over the `paths` generated from spec/workbench/openapi.yaml, against a real workbench over HTTP. A call
// to a path the document lacks, without a path parameter it needs, or with a body field of the wrong type
// does not compile: test/client/workbench-client.check.ts, which test/client/client-types.test.ts
// compiles (its `@ts-expect-error` lines fail when the document stops refusing them). A field the body does not have still compiles (openapi-fetch infers the body generically, so
// TypeScript's excess-property check does not apply; the same holds for the contract's clients): the
// server's 400 names it. A success reads as the document's answer, a refusal as the contract's envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbenchClient, workbenchBaseUrl, type WorkbenchClient } from 'storefront-contract/workbench';
import { createWorkbench, type Workbench } from '../../workbench/index.js';

const STORE = 'client-store';
let workbench: Workbench;
let client: WorkbenchClient;
beforeAll(async () => {
  workbench = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true });
  client = createWorkbenchClient({ baseUrl: `${workbench.url}/` });
});
afterAll(async () => {
  await workbench?.close();
});

const store = { path: { store_id: STORE } };

describe('createWorkbenchClient', () => {
  it('addresses {baseUrl}/__simulator, with or without a trailing slash', () => {
    expect(workbenchBaseUrl('http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010/__simulator');
    expect(client.baseUrl).toBe(`${workbench.url}/__simulator`);
  });

  it('reads the world, moves stock and reads the move back through the storefront-facing world', async () => {
    const world = await client.GET('/stores/{store_id}/world', { params: store });
    expect(world.response.status).toBe(200);
    const product = world.data!.content.products.one_variant[0];
    expect(product.id).toMatch(/^prd_/);
    const moved = await client.POST('/stores/{store_id}/inventory', { params: store, body: { product_id: product.id, stock_quantity: 7 } });
    expect(moved.response.status, JSON.stringify(moved.error)).toBe(200);
    expect(moved.data!.success).toBe(true);
    const clock = await client.GET('/stores/{store_id}/clock', { params: store });
    expect(clock.data!.content.wall_clock).toBe(true);
  });

  it('a field the body does not have compiles, and the server refuses it naming the field and the fields it takes', async () => {
    const extra = { product_id: 'prd_7Q2K9X', stock_quantity: 1, colour: 'red' };
    const refused = await client.POST('/stores/{store_id}/inventory', { params: store, body: extra });
    expect(refused.response.status).toBe(400);
    expect(refused.error!.content.error.details).toEqual([{ location: 'body', name: 'colour', message: 'is not an allowed property (fields: product_id, variant_id, all_variants, stock_quantity, adjust)' }]);
  });

  it('a refusal reads as the envelope: status, code and the field', async () => {
    const refused = await client.POST('/stores/{store_id}/inventory', { params: store, body: { product_id: 'prd_NOPE', stock_quantity: 1 } });
    expect(refused.response.status).toBe(404);
    expect(refused.data).toBeUndefined();
    expect(refused.error!.success).toBe(false);
    expect(refused.error!.content.error.code).toBe('not_found');
  });
});
