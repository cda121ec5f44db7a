import { describe, expect, it } from 'vitest';
import { paginationPastEnd } from '../../../../conformance/rules/rest/pagination-past-end.js';
import { exchange, page } from './exchange.js';

describe('pagination-past-end', () => {
  it.each([
    ['an empty page past the end', '/catalog/products?page=4&limit=2', page({ products: [] }, { total_records: 5, total_pages: 3, limit: 2, next_page: null, previous_page: 3 }), []],
    ['a page within the range', '/catalog/products?page=3&limit=2', page({ products: [{}] }, { total_records: 5, total_pages: 3, limit: 2, next_page: null, previous_page: 2 }), []],
    [
      'the first page served again past the end',
      '/catalog/products?page=4&limit=2',
      page({ products: [{}, {}] }, { total_records: 5, total_pages: 3, limit: 2, next_page: 2, previous_page: null }),
      ['page 4 is past the last page 3 but the response has 2 products and next_page 2'],
    ],
  ])('%s', (_, path, body, want) => {
    expect(paginationPastEnd.check(exchange({ path, body }))).toEqual(want);
  });

  it('accepts a documented 4XX for a page past the end', () => {
    expect(paginationPastEnd.check(exchange({ path: '/catalog/products?page=9', status: 400, body: {} }))).toEqual([]);
  });

  it('is an error (the mock pages its example lists, so a certified server must too)', () => {
    expect(paginationPastEnd.severity).toBe('error');
  });
});
