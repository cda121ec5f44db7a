import { describe, expect, it } from 'vitest';
import { pagination } from '../../../../conformance/rules/rest/pagination.js';
import { exchange, page } from './exchange.js';

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i}` }));

describe('pagination', () => {
  it.each([
    ['first of three pages', '/orders?page=1&limit=2', page({ orders: items(2) }, { total_records: 5, total_pages: 3, limit: 2, next_page: 2, previous_page: null }), []],
    ['middle page', '/orders?page=2&limit=2', page({ orders: items(2) }, { total_records: 5, total_pages: 3, limit: 2, next_page: 3, previous_page: 1 }), []],
    ['last page, short', '/orders?page=3&limit=2', page({ orders: items(1) }, { total_records: 5, total_pages: 3, limit: 2, next_page: null, previous_page: 2 }), []],
    ['empty list', '/orders?limit=10', page({ orders: [] }, { total_records: 0, total_pages: 0, limit: 10, next_page: null, previous_page: null }), []],
    ['limit not echoed', '/orders?page=1&limit=5', page({ orders: items(2) }, { total_records: 2, total_pages: 1, limit: 10, next_page: null, previous_page: null }), ['pagination.limit is 10 but the request asked for limit=5']],
    [
      'total_pages not ceil(total_records / limit)',
      '/orders?page=1&limit=10',
      page({ orders: items(2) }, { total_records: 2, total_pages: 3, limit: 10, next_page: null, previous_page: null }),
      ['total_pages is 3 but ceil(total_records 2 / limit 10) is 1'],
    ],
    ['next_page on the last page', '/orders?page=1&limit=10', page({ orders: items(2) }, { total_records: 2, total_pages: 1, limit: 10, next_page: 2, previous_page: null }), [
      'next_page 2 points past the last page 1',
      'next_page is 2 on page 1 of 1; it must be null',
    ]],
    ['previous_page wrong', '/orders?page=2&limit=2', page({ orders: items(2) }, { total_records: 5, total_pages: 3, limit: 2, next_page: 3, previous_page: null }), ['previous_page is null on page 2; it must be 1']],
    ['more items than limit', '/orders?page=1&limit=2', page({ orders: items(3) }, { total_records: 5, total_pages: 3, limit: 2, next_page: 2, previous_page: null }), ['orders has 3 items, more than limit 2']],
    ['short page before the last', '/orders?page=1&limit=2', page({ orders: items(1) }, { total_records: 5, total_pages: 3, limit: 2, next_page: 2, previous_page: null }), ['page 1 of 3 has 1 orders; every page before the last has limit (2)']],
  ])('%s', (_, path, body, want) => {
    expect(pagination.check(exchange({ operationId: 'listOrders', path, body }))).toEqual(want);
  });

  it('does not apply to errors or bodies without pagination', () => {
    expect(pagination.check(exchange({ operationId: 'listOrders', status: 400, body: {} }))).toEqual([]);
    expect(pagination.check(exchange({ operationId: 'listCountries', body: { success: true, message: 'ok', content: { countries: [] } } }))).toEqual([]);
  });
});
