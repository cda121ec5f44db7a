import { describe, expect, it } from 'vitest';
import { paginationPastEnd } from '../../../../conformance/rules/rest/pagination-past-end.js';
import { view, type View } from '../view.js';
import { exchange, page, type ExchangeInput } from './exchange.js';

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  [
    'an empty page past the end',
    { given: { path: '/catalog/products?page=4&limit=2', body: page({ products: [] }, { total_records: 5, total_pages: 3, limit: 2, next_page: null, previous_page: 3 }) }, want: [] },
  ],
  [
    'a page within the range (not past the end: skipped)',
    { given: { path: '/catalog/products?page=3&limit=2', body: page({ products: [{}] }, { total_records: 5, total_pages: 3, limit: 2, next_page: null, previous_page: 2 }) }, want: 'skipped' },
  ],
  [
    'the first page served again past the end',
    {
      given: { path: '/catalog/products?page=4&limit=2', body: page({ products: [{}, {}] }, { total_records: 5, total_pages: 3, limit: 2, next_page: 2, previous_page: null }) },
      want: ['page 4 is past the last page 3 but the response has 2 products and next_page 2'],
    },
  ],
  [
    'past the end of an empty list: previous_page null',
    { given: { path: '/catalog/products?page=2', body: page({ products: [] }, { total_records: 0, total_pages: 0, limit: 20, next_page: null, previous_page: null }) }, want: [] },
  ],
  [
    'an empty page past the end whose previous_page is the page before the one asked (advice: SF-041 is designed here)',
    {
      given: { path: '/catalog/products?page=9&limit=2', body: page({ products: [] }, { total_records: 5, total_pages: 3, limit: 2, next_page: null, previous_page: 8 }) },
      want: ['warning: previous_page is 8 on page 9, past the last page; designed here (SF-041), not stated by the platform: the last page (3), so a client can step back to records'],
    },
  ],
  ['a documented 4XX for a page past the end (status-documented judges it)', { given: { path: '/catalog/products?page=9', status: 400, body: {} }, want: 'skipped' }],
];

describe('pagination-past-end', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(paginationPastEnd, exchange(given))).toEqual(want);
  });

  it('is an error (the mock pages its example lists, so a certified server must too)', () => {
    expect(paginationPastEnd.severity).toBe('error');
  });
});
