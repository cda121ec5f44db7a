// Type-level contract of storefront-contract/react-query, checked by `tsc` in client-types.test.ts (not
// run: hooks are called outside a component here only to read their types). Data is typed from the
// contract; `error` is an Error that narrows to StorefrontApiError's typed envelope.
import { expectTypeOf } from 'vitest';
import { createAdminClient, createStorefrontClient, StorefrontApiError, type ErrorCode, type ErrorItem } from 'storefront-contract';
import { createQueryHooks } from 'storefront-contract/react-query';

const api = createQueryHooks(createStorefrontClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store', apiKey: 'k' }));
const admin = createQueryHooks(createAdminClient({ baseUrl: 'http://127.0.0.1:4010', storeId: 'demo-store', adminToken: 't' }));

export function hooks() {
  const list = api.useQuery('get', '/catalog/products', { params: { query: { page: 1, limit: 20 } } });
  if (list.data) {
    expectTypeOf(list.data.content.products[0]!.pricing.selling_price).toEqualTypeOf<number>();
    expectTypeOf(list.data.content.pagination.next_page).toEqualTypeOf<number | null>();
  }
  if (list.error) {
    expectTypeOf(list.error.message).toEqualTypeOf<string>();
    if (list.error instanceof StorefrontApiError) {
      expectTypeOf(list.error.status).toEqualTypeOf<number>();
      expectTypeOf(list.error.details).toEqualTypeOf<ErrorItem[]>();
      expectTypeOf<ErrorCode>().toMatchTypeOf<NonNullable<typeof list.error.code>>();
    }
  }
  // Path parameters are required, and typed.
  api.useQuery('get', '/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'p', variant_id: 'v' } } });
  // @ts-expect-error variant_id is missing
  api.useQuery('get', '/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'p' } } });
  // @ts-expect-error limit is a number
  api.useQuery('get', '/catalog/products', { params: { query: { limit: 'twenty' } } });

  // Pages of a list: `page` is the page parameter, `next_page` ends the walk.
  const pages = api.useInfiniteQuery('get', '/catalog/products', { params: { query: { limit: 50 } } }, {
    pageParamName: 'page',
    initialPageParam: 1,
    getNextPageParam: (last) => last.content.pagination.next_page ?? undefined,
  });
  if (pages.data) expectTypeOf(pages.data.pages[0]!.content.products[0]!.id).toEqualTypeOf<string>();

  const create = api.useMutation('post', '/customers');
  expectTypeOf(create.mutate).parameter(0).toHaveProperty('body');

  // The Admin API's hooks take the catalog's event names too.
  const webhook = admin.useMutation('post', '/webhooks');
  webhook.mutate({ body: { url: 'https://example.in/hooks', events: ['order.created'] } });
  // @ts-expect-error a misspelled event name
  webhook.mutate({ body: { url: 'https://example.in/hooks', events: ['order.craeted'] } });

  // queryOptions for prefetching and invalidation: the same key the hooks use.
  const options = api.queryOptions('get', '/common/countries');
  expectTypeOf(options.queryKey[0]).toEqualTypeOf<'get'>();
}
