// Type-level contract of the typed clients, checked by `tsc` in client-types.test.ts (not run), under a
// strict app's flags (tsconfig.types.json: exactOptionalPropertyTypes, noUncheckedIndexedAccess, no skipLibCheck).
// Each `@ts-expect-error` must be an error: if a wrong call ever compiles, tsc reports the directive
// as unused and the test fails.
import { expectTypeOf } from 'vitest';
import { createAdminClient, createStorefrontClient, isErrorEnvelope, StorefrontApiError, unwrap } from '../../src/index.js';
import type { ErrorCode, ErrorEnvelope, ErrorItem, WebhookEvent, WebhookEventName, WebhookEventOf } from '../../src/index.js';

const client = createStorefrontClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store', apiKey: 'k' });
const admin = createAdminClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store', adminToken: 't' });

export async function storefrontCalls() {
  // Correct calls compile and give typed data.
  const list = await client.GET('/catalog/products', { params: { query: { page: 1, limit: 20, category_id: ['c1'] } } });
  if (list.data) {
    expectTypeOf(list.data.success).toEqualTypeOf<true>();
    expectTypeOf(list.data.content.products[0]!.pricing.selling_price).toEqualTypeOf<number>();
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
  // The answer lists what the server did not know: plain strings (a newer server knows more names).
  if (created.data) expectTypeOf(created.data.content.ignored_events).toEqualTypeOf<string[]>();
  // @ts-expect-error events must be a list of names
  await admin.POST('/webhooks', { body: { url: 'https://example.in/hooks', events: 'order.created' } });
  // @ts-expect-error a misspelled event name is not one of the catalog's
  await admin.POST('/webhooks', { body: { url: 'https://example.in/hooks', events: ['order.craeted'] } });
  // An unknown name on purpose (the contract accepts it and reports it in ignored_events): a cast.
  await admin.POST('/webhooks', { body: { url: 'https://example.in/hooks', events: ['order.created', 'order.archived' as WebhookEventName] } });
  // The test delivery's event is a catalog name too.
  await admin.POST('/webhooks/{id}/test', { params: { path: { id: 'wh_1' } }, body: { event: 'product.updated' } });
  // @ts-expect-error a misspelled test event
  await admin.POST('/webhooks/{id}/test', { params: { path: { id: 'wh_1' } }, body: { event: 'product.update' } });
  // Admin failures are the same envelope.
  if (created.error) expectTypeOf(created.error).toEqualTypeOf<ErrorEnvelope>();
}

export async function typedErrors() {
  // The client's `error` is the contract's envelope: known codes (open to new ones), typed details.
  const { error } = await client.GET('/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'p', variant_id: 'v' } } });
  if (error) {
    expectTypeOf(error).toEqualTypeOf<ErrorEnvelope>();
    expectTypeOf(error.success).toEqualTypeOf<false>();
    expectTypeOf(error.content.error.details).toEqualTypeOf<ErrorItem[]>();
    expectTypeOf(error.content.error.details[0]!.location).toEqualTypeOf<'path' | 'query' | 'header' | 'body'>();
    // Every known code is accepted, and so is a code this version does not know.
    expectTypeOf<ErrorCode>().toMatchTypeOf<typeof error.content.error.code>();
    expectTypeOf<'rate_limited'>().toMatchTypeOf<typeof error.content.error.code>();
    expectTypeOf(error.content.error.code).toMatchTypeOf<string>();
  }
  // After unwrap, the failure is a StorefrontApiError with the same typed envelope.
  try {
    await unwrap(client.GET('/common/countries'), 'listCountries');
  } catch (e) {
    if (e instanceof StorefrontApiError) {
      expectTypeOf(e.status).toEqualTypeOf<number>();
      expectTypeOf(e.body).toEqualTypeOf<ErrorEnvelope | undefined>();
      expectTypeOf(e.details).toEqualTypeOf<ErrorItem[]>();
      expectTypeOf(e.code).toEqualTypeOf<ErrorEnvelope['content']['error']['code'] | undefined>();
      expectTypeOf<ErrorCode>().toMatchTypeOf<NonNullable<typeof e.code>>();
    }
    if (isErrorEnvelope(e)) expectTypeOf(e.content.error.details).toEqualTypeOf<ErrorItem[]>();
  }
  // @ts-expect-error ErrorCode itself is closed: what a server sends is one of these
  const unknown: ErrorCode = 'rate_limited';
  void unknown;
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
