// Browse catalog: anonymous auth, products with each filter and sort, a page past the end, the variant
// the list names, similar products, countries.
import { bearer, expectStatus, type ScenarioDriver } from './session.js';

export const browseCatalog: ScenarioDriver = {
  name: 'browse-catalog',
  description: 'Anonymous shopper: sign in, list products with every filter and sort, open a variant, similar products, countries.',
  async drive(s) {
    const anon = expectStatus('anon', await s.step('anon', { method: 'POST', path: '/auth/anonymous', headers: { 'x-api-key': s.apiKey } }), 200);
    const auth = bearer(anon.body.content.access_token);
    const list = expectStatus('list-products', await s.step('list-products', { method: 'GET', path: '/catalog/products', query: { page: 1, limit: 2 }, headers: auth }), 200);
    const product = list.body.content.products[0];
    const pages: number = list.body.content.pagination.total_pages;
    const filters: Array<[string, Record<string, string | number | Array<string | number>>, Record<string, string>?]> = [
      ['list-products-by-category-id', { page: 1, limit: 2, category_id: ['cat_lips', 'cat_face'] }],
      ['list-products-by-category-slug', { page: 1, limit: 2, category_slug: ['lips'] }],
      ['list-products-sorted', { page: 1, limit: 2, sort_by: JSON.stringify({ selling_price: 'asc' }) }],
      ['list-products-without-inventory', { page: 1, limit: 2, inventory: 'false' }],
      ['list-products-customer-group', { page: 1, limit: 2 }, { 'x-customer-group-id': 'cg_retail' }],
    ];
    for (const [name, query, headers] of filters) {
      expectStatus(name, await s.step(name, { method: 'GET', path: '/catalog/products', query, headers: { ...auth, ...(headers ?? {}) } }), 200);
    }
    await s.step('list-products-past-end', { method: 'GET', path: '/catalog/products', query: { page: pages + 1, limit: 2 }, headers: auth });
    expectStatus('get-variant', await s.step('get-variant', { method: 'GET', path: `/catalog/products/${product.id}/variants/${product.variants[0].id}`, headers: auth }), 200);
    expectStatus(
      'get-variant-with-inventory',
      await s.step('get-variant-with-inventory', {
        method: 'GET',
        path: `/catalog/products/${product.id}/variants/${product.variants[0].id}`,
        query: { inventory: 'true' },
        headers: { ...auth, 'x-customer-group-id': 'cg_retail' },
      }),
      200,
    );
    expectStatus('list-similar', await s.step('list-similar', { method: 'GET', path: '/pos/catalog/products/similar', query: { product_id: product.id, page: 1, limit: 2 }, headers: auth }), 200);
    expectStatus('list-countries', await s.step('list-countries', { method: 'GET', path: '/common/countries', headers: auth }), 200);
  },
};
