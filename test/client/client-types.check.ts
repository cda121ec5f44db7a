// Type-level contract of the typed clients, checked by `tsc` in client-types.test.ts (not run).
// Each `@ts-expect-error` must be an error: if a wrong call ever compiles, tsc reports the directive
// as unused and the test fails.
import { expectTypeOf } from 'vitest';
import { createAdminClient, createStorefrontClient } from '../../src/index.js';
import type { WebhookEvent, WebhookEventOf } from '../../src/index.js';

const client = createStorefrontClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store', apiKey: 'k' });
const admin = createAdminClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store', adminToken: 't' });

export async function storefrontCalls() {
  // Correct calls compile and give typed data.
  const list = await client.GET('/catalog/products', { params: { query: { page: 1, limit: 20, category_id: ['c1'] } } });
  if (list.data) {
    expectTypeOf(list.data.success).toEqualTypeOf<true>();
    expectTypeOf(list.data.content.products[0].pricing.selling_price).toEqualTypeOf<number>();
    expectTypeOf(list.data.content.pagination.total_records).toEqualTypeOf<number>();
  }
  if (list.error) expectTypeOf(list.error.success).toEqualTypeOf<false>();

  const variant = await client.GET('/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'p', variant_id: 'v' } } });
  if (variant.data) expectTypeOf(variant.data.content.variant.sku).toEqualTypeOf<string>();

  // A wrong parameter type does not compile (limit is an integer).
  // @ts-expect-error limit must be a number
  await client.GET('/catalog/products', { params: { query: { limit: 'twenty' } } });

  // A missing required parameter does not compile (user_id is required on /orders).
  // @ts-expect-error user_id is required
  await client.GET('/orders', { params: { query: { page: 1 } } });

  // A missing path parameter does not compile.
  // @ts-expect-error variant_id is required
  await client.GET('/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'p' } } });

  // A wrong body does not compile (delivery_pincode is a string).
  // @ts-expect-error delivery_pincode must be a string
  await client.POST('/shipping/fulfillment-options', { body: { delivery_pincode: 560038, cart_id: 'c' } });

  // A body missing a required field does not compile.
  // @ts-expect-error location_id is required
  await client.POST('/pos/auth/login/phone', { body: { phone: '9876543210', country_code: '+91' } });

  // An unknown path does not compile.
  // @ts-expect-error no such path
  await client.GET('/catalog/unknown');

  // A wrong method for a path does not compile.
  // @ts-expect-error /common/countries has no POST
  await client.POST('/common/countries');
}

export async function adminCalls() {
  const created = await admin.POST('/webhooks', { body: { url: 'https://example.in/hooks', events: ['order.created'] } });
  if (created.data) expectTypeOf(created.data.content.secret).toBeString();
  // @ts-expect-error events must be a list of names
  await admin.POST('/webhooks', { body: { url: 'https://example.in/hooks', events: 'order.created' } });
}

export function webhookEventTypes(event: WebhookEvent) {
  if (event.event === 'order.created') {
    // Narrowed by the discriminant: the order's properties are typed.
    expectTypeOf(event.payload.properties.order_number).toEqualTypeOf<string>();
  }
  expectTypeOf<WebhookEventOf<'product.created'>['event']>().toEqualTypeOf<'product.created'>();
  // @ts-expect-error not an event of the catalog
  expectTypeOf<WebhookEventOf<'order.exploded'>>();
}
