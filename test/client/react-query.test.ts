// storefront-contract/react-query in Node, against the sandbox over loopback HTTP, through TanStack's
// QueryClient (no React needed for queries: the hooks are the same query options): typed data, failures
// thrown as StorefrontApiError with the typed envelope and the operation's id, and the query keys of two
// stores' clients kept apart in one cache. The hooks in a real React app: react-query-app.test.ts.
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorefrontClient, StorefrontApiError, type StorefrontClient } from 'storefront-contract';
import { createQueryHooks } from 'storefront-contract/react-query';
import type { Workbench } from '../../workbench/index.js';
import { startWorkbench } from '../helpers/adapter.js';

/** The store API key the sandbox accepts: the one place this test names it. */
const API_KEY = 'sk_test_query_key';
let workbench: Workbench;
let queryClient: QueryClient;

beforeAll(async () => {
  workbench = await startWorkbench({ port: 0, host: '127.0.0.1', quiet: true, webhooks: false, apiKeys: [API_KEY] });
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});
afterAll(async () => {
  queryClient?.clear();
  await workbench?.close();
});

function hooksFor(storeId: string) {
  const client: StorefrontClient = createStorefrontClient({ baseUrl: workbench.url, storeId, apiKey: API_KEY, signIn: () => client.signInAnonymously().then((s) => s.access_token) });
  return createQueryHooks(client);
}

describe('createQueryHooks on the storefront client', () => {
  it('fetches typed data', async () => {
    const api = hooksFor('demo-store');
    const data = await queryClient.fetchQuery(api.queryOptions('get', '/catalog/products', { params: { query: { category_slug: ['lips'], limit: 3 } } }));
    expect(data.content.products.map((p) => p.name)).toEqual(['Matte Lipstick', 'Tinted Lip Balm', 'Liquid Lip Colour']);
    expect(data.content.pagination.limit).toBe(3);
  });

  it('throws a failure as StorefrontApiError: status, operation, typed envelope', async () => {
    const api = hooksFor('demo-store');
    const error = await queryClient
      .fetchQuery(api.queryOptions('get', '/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'prd_7Q2K9X', variant_id: 'var_nope' } } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorefrontApiError);
    const failure = error as StorefrontApiError;
    expect([failure.status, failure.operationId, failure.code]).toEqual([404, 'getVariant', 'not_found']);
    expect(failure.details).toEqual([{ location: 'path', name: 'variant_id', message: 'no variant with this id in this product' }]);
    expect(failure.message).toBe(failure.body?.message);
  });

  it("keeps two stores' answers apart in one QueryClient: the key carries the client's base URL", async () => {
    const [a, b] = [hooksFor('query-store-a'), hooksFor('query-store-b')];
    const optionsA = a.queryOptions('get', '/orders', { params: { query: { user_id: 'cst_9XK2PL' } } });
    const optionsB = b.queryOptions('get', '/orders', { params: { query: { user_id: 'cst_9XK2PL' } } });
    expect(optionsA.queryKey).not.toEqual(optionsB.queryKey);
    expect(optionsA.queryKey.slice(0, 2)).toEqual(['get', '/orders']);
    await Promise.all([queryClient.fetchQuery(optionsA), queryClient.fetchQuery(optionsB)]);
    // Partial keys still match both (invalidate every store's orders at once).
    expect(queryClient.getQueryCache().findAll({ queryKey: ['get', '/orders'] })).toHaveLength(2);
    expect(queryClient.getQueryData(optionsA.queryKey)).toBeDefined();
  });
});
