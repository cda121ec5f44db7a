import { describe, expect, it } from 'vitest';
import { pagination } from '../../../../conformance/rules/rest/pagination.js';
import { view, type View } from '../view.js';
import { exchange, page, type ExchangeInput } from './exchange.js';

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i}` }));
const orders = (path: string, n: number, pagination: Record<string, unknown>): ExchangeInput => ({ operationId: 'listOrders', path, body: page({ orders: items(n) }, pagination) });

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  ['first of three pages', { given: orders('/orders?page=1&limit=2', 2, { total_records: 5, total_pages: 3, limit: 2, next_page: 2, previous_page: null }), want: [] }],
  ['middle page', { given: orders('/orders?page=2&limit=2', 2, { total_records: 5, total_pages: 3, limit: 2, next_page: 3, previous_page: 1 }), want: [] }],
  ['last page, short', { given: orders('/orders?page=3&limit=2', 1, { total_records: 5, total_pages: 3, limit: 2, next_page: null, previous_page: 2 }), want: [] }],
  ['empty list', { given: orders('/orders?limit=10', 0, { total_records: 0, total_pages: 0, limit: 10, next_page: null, previous_page: null }), want: [] }],
  [
    'a larger limit than requested (advice)',
    { given: orders('/orders?page=1&limit=5', 2, { total_records: 2, total_pages: 1, limit: 10, next_page: null, previous_page: null }), want: ['warning: pagination.limit is 10 but the request asked for limit=5: pages are larger than asked'] },
  ],
  // The spec's limit is the "rows per page used for this response": a server may cap it (no maximum is stated).
  ['a server capping the page size', { given: orders('/orders?page=1&limit=50', 20, { total_records: 45, total_pages: 3, limit: 20, next_page: 2, previous_page: null }), want: [] }],
  [
    'a capped page judged against the reported limit',
    { given: orders('/orders?page=1&limit=50', 12, { total_records: 45, total_pages: 3, limit: 20, next_page: 2, previous_page: null }), want: ['page 1 of 3 has 12 orders; every page before the last has limit (20)'] },
  ],
  [
    'total_pages not ceil(total_records / limit)',
    { given: orders('/orders?page=1&limit=10', 2, { total_records: 2, total_pages: 3, limit: 10, next_page: null, previous_page: null }), want: ['total_pages is 3 but ceil(total_records 2 / limit 10) is 1'] },
  ],
  [
    'next_page on the last page (null at the end is designed: advice)',
    {
      given: orders('/orders?page=1&limit=10', 2, { total_records: 2, total_pages: 1, limit: 10, next_page: 2, previous_page: null }),
      want: ['next_page 2 points past the last page 1', 'warning: next_page is 2 on page 1 of 1; it must be null'],
    },
  ],
  ['previous_page wrong', { given: orders('/orders?page=2&limit=2', 2, { total_records: 5, total_pages: 3, limit: 2, next_page: 3, previous_page: null }), want: ['previous_page is null on page 2; it must be 1'] }],
  ['more items than limit', { given: orders('/orders?page=1&limit=2', 3, { total_records: 5, total_pages: 3, limit: 2, next_page: 2, previous_page: null }), want: ['orders has 3 items, more than limit 2'] }],
  [
    'short page before the last',
    { given: orders('/orders?page=1&limit=2', 1, { total_records: 5, total_pages: 3, limit: 2, next_page: 2, previous_page: null }), want: ['page 1 of 3 has 1 orders; every page before the last has limit (2)'] },
  ],
  ['an error response (skipped)', { given: { operationId: 'listOrders', status: 400, body: {} }, want: 'skipped' }],
  ['a body without pagination (skipped)', { given: { operationId: 'listCountries', body: { success: true, message: 'ok', content: { countries: [] } } }, want: 'skipped' }],
];

describe('pagination', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(pagination, exchange(given))).toEqual(want);
  });
});
