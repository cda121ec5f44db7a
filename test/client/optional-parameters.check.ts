// issue 37 item 6, checked by tsc in client-types.test.ts under exactOptionalPropertyTypes
// (tsconfig.types.json): an optional query or header parameter takes `undefined`, as the client options
// do, so an app passes a filter it may not have without a conditional spread; a required one, and every
// path parameter, still refuses `undefined`. Each `@ts-expect-error` must be an error (an unused one fails).
import { createAdminClient, createStorefrontClient } from '../../src/index.js';

const client = createStorefrontClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store', apiKey: 'k' });
const admin = createAdminClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store', adminToken: 't' });

/** What an app has: a category the shopper may have picked, a customer group it may know. */
export async function optionalFilters(category: string | undefined, group: string | undefined, event: 'order.created' | undefined) {
  await client.GET('/catalog/products', {
    params: { query: { category_id: category === undefined ? undefined : [category], limit: 20, inventory: undefined }, header: { 'x-customer-group-id': group } },
  });
  // The same on a query whose group is required (user_id), and on the Admin API.
  await client.GET('/orders', { params: { query: { user_id: 'usr_1', status: undefined, page: undefined } } });
  await admin.GET('/webhooks/deliveries', { params: { query: { event, webhook_id: undefined } } });
}

export async function requiredParameters(user: string | undefined) {
  // @ts-expect-error user_id is required: undefined is not a user
  await client.GET('/orders', { params: { query: { user_id: undefined } } });
  // @ts-expect-error user_id is required: a value that may be undefined is refused
  await client.GET('/orders', { params: { query: { user_id: user } } });
  // @ts-expect-error a path parameter is always required
  await client.GET('/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: undefined, variant_id: 'v' } } });
  // An optional parameter keeps its type: undefined, not anything.
  // @ts-expect-error limit is a number
  await client.GET('/catalog/products', { params: { query: { limit: 'twenty' } } });
}
