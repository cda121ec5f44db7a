import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { paginationPastEnd } from '../../../../conformance/rules/rest/pagination-past-end.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, exchange, page, skipped, warning } from './exchange.js';

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

describe('issue 38: pagination-past-end, every field of its findings and both sides of each bound', () => {
  const judged = (given: ExchangeInput) => judge(paginationPastEnd, exchange(given));
  const p = (records: unknown, pages: unknown, next: unknown, previous: unknown) => ({ total_records: records, total_pages: pages, limit: 2, next_page: next, previous_page: previous });
  it.each<[string, ExchangeInput, unknown]>([
    ['page 1 of an empty list is not past the end', { path: '/catalog/products?page=1', body: page({ products: [] }, p(0, 0, null, null)) }, skipped('not a page past the last one')],
    ['no page asked', { path: '/catalog/products', body: page({ products: [] }, p(0, 0, null, null)) }, skipped('not a page past the last one')],
    ['the last page', { path: '/catalog/products?page=3', body: page({ products: [{}] }, p(5, 3, null, 2)) }, skipped('not a page past the last one')],
    ['total_pages as text', { path: '/catalog/products?page=9', body: page({ products: [] }, p(5, '3', null, 3)) }, skipped('not a list page with total_pages')],
    ['an error', { path: '/catalog/products?page=9', status: 400, body: {} }, skipped('not a list page with total_pages')],
    [
      'items past the end though next_page is null',
      { path: '/catalog/products?page=4', body: page({ products: [{}] }, p(5, 3, null, 3)) },
      [error('page', 'page 4 is past the last page 3 but the response has 1 products and next_page null')],
    ],
    ['empty but a next page', { path: '/catalog/products?page=4', body: page({ products: [] }, p(5, 3, 5, 3)) }, [error('page', 'page 4 is past the last page 3 but the response has 0 products and next_page 5')]],
    ['no list at all, a next page', { path: '/catalog/products?page=4', body: page({}, p(5, 3, 5, 3)) }, [error('page', 'page 4 is past the last page 3 but the response has 0 items and next_page 5')]],
    ['no list at all, nothing next', { path: '/catalog/products?page=4', body: page({}, p(5, 3, null, 3)) }, []],
    ['total_records unknown: previous_page not judged', { path: '/catalog/products?page=4', body: page({ products: [] }, p(undefined, 3, null, 1)) }, []],
    [
      'an empty list with a previous page',
      { path: '/catalog/products?page=2', body: page({ products: [] }, p(0, 0, null, 1)) },
      [warning('pagination.previous_page', 'previous_page is 1 on page 2, past the last page; designed here (SF-041), not stated by the platform: the last page (null), so a client can step back to records')],
    ],
    [
      'previous_page null past the end of records',
      { path: '/catalog/products?page=5', body: page({ products: [] }, p(5, 3, null, null)) },
      [warning('pagination.previous_page', 'previous_page is null on page 5, past the last page; designed here (SF-041), not stated by the platform: the last page (3), so a client can step back to records')],
    ],
  ])('%s', (_, given, want) => {
    expect(judged(given)).toEqual(want);
  });
});
