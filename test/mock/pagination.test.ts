// The list operations page over their example's set: `page` and `limit` are honoured, `pagination` is
// computed for the page asked, a page past the end is empty, and no page/limit gives the example as is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { bearer, call, loadContract, startMock, storefront, type Contract } from './helpers.js';

let server: MockServer;
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
  server = await startMock();
});
afterAll(() => server?.close());

const LISTS = [
  { template: '/catalog/products', base: '/catalog/products?', key: 'products' },
  { template: '/pos/catalog/products/similar', base: '/pos/catalog/products/similar?product_id=prd_7Q2K9X&', key: 'products' },
  { template: '/orders', base: '/orders?user_id=cst_9XK2PL&', key: 'orders' },
] as const;

describe.each(LISTS)('$template', ({ template, base, key }) => {
  const get = (query: string) => call(storefront(server), 'GET', `${base}${query}`, { headers: bearer() });
  const example = () => contract.firstExample('GET', template, 200) as any;

  it('walks every page of the set with limit 1: unique records, consistent pagination, valid bodies', async () => {
    const total = example().content.pagination.total_records;
    const seen = new Set<string>();
    for (let page = 1; page <= total; page++) {
      const reply = await get(`page=${page}&limit=1`);
      expect(reply.status).toBe(200);
      expect(contract.check('GET', template, 200, reply.json)).toEqual([]);
      const { pagination } = reply.json.content;
      expect(pagination).toMatchObject({ total_records: total, total_pages: total, limit: 1, previous_page: page > 1 ? page - 1 : null, next_page: page < total ? page + 1 : null });
      expect(reply.json.content[key]).toHaveLength(1);
      seen.add(JSON.stringify(reply.json.content[key][0].id ?? reply.json.content[key][0].order_number ?? reply.json.content[key][0].product_id));
    }
    expect(seen.size).toBe(total);
  });

  it('answers a page past the end with no records and no next page', async () => {
    const { total_pages: pages, limit } = example().content.pagination;
    const reply = await get(`page=${pages + 1}&limit=${limit}`);
    expect(reply.status).toBe(200);
    expect(reply.json.content[key]).toEqual([]);
    expect(reply.json.content.pagination.next_page).toBeNull();
    expect(contract.check('GET', template, 200, reply.json)).toEqual([]);
  });

  it('serves the example itself for its own page and limit, and when neither is given', async () => {
    const { limit } = example().content.pagination;
    expect((await get(`page=1&limit=${limit}`)).json).toEqual(example());
    expect((await get('')).json).toEqual(example());
  });

  it('keeps a Prefer example untouched by paging', async () => {
    const name = Object.keys(contract.doc.paths[template].get.responses['200'].content['application/json'].examples)[0];
    const reply = await call(storefront(server), 'GET', `${base}page=9&limit=1`, { headers: { ...bearer(), prefer: `example=${name}` } });
    expect(reply.json).toEqual(example());
  });
});
