import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { pagination } from '../../../../conformance/rules/rest/pagination.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, exchange, page, skipped, warning } from './exchange.js';

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

describe('issue 38: pagination, every field of its findings and both sides of each bound', () => {
  const judged = (given: ExchangeInput) => judge(pagination, exchange(given));
  const p = (records: number, pages: number, limit: unknown, next: unknown, previous: unknown) => ({ total_records: records, total_pages: pages, limit, next_page: next, previous_page: previous });
  it.each<[string, ExchangeInput, unknown]>([
    ['a 2XX at the top of the class is judged', { ...orders('/orders?page=1&limit=2', 2, p(5, 9, 2, 2, null)), status: 299 }, [error('pagination.total_pages', 'total_pages is 9 but ceil(total_records 5 / limit 2) is 3')]],
    ['a 3XX is not', { ...orders('/orders?page=1&limit=2', 2, p(5, 9, 2, 2, null)), status: 300 }, skipped('not a list page (no content.pagination on a 2XX)')],
    ['a 1XX is not', { ...orders('/orders?page=1&limit=2', 2, p(5, 9, 2, 2, null)), status: 199 }, skipped('not a list page (no content.pagination on a 2XX)')],
    ['no content', { operationId: 'listOrders', body: { success: true, message: 'ok' } }, skipped('not a list page (no content.pagination on a 2XX)')],
    ['pagination as a list', { operationId: 'listOrders', body: { success: true, message: 'ok', content: { orders: [], pagination: [] } } }, skipped('not a list page (no content.pagination on a 2XX)')],
    ['a body that is no object', { operationId: 'listOrders', body: 'page' }, skipped('not a list page (no content.pagination on a 2XX)')],
    ['the limit asked for, exactly', orders('/orders?page=1&limit=2', 2, p(5, 3, 2, 2, null)), []],
    ['a limit asked of -Infinity (no number of rows)', orders('/orders?page=1&limit=-Infinity', 2, p(5, 3, 2, 2, null)), []],
    ['a larger limit than an unreadable one asked', orders('/orders?page=1&limit=many', 2, p(5, 3, 2, 2, null)), []],
    ['a larger limit than one asked, reported as text: numbers first', orders('/orders?page=1&limit=5', 2, p(5, 3, '10', 2, null)), [error('pagination', 'total_records, total_pages and limit must be numbers')]],
    ['total_records as text', orders('/orders?page=1&limit=2', 2, { ...p(5, 3, 2, 2, null), total_records: '5' }), [error('pagination', 'total_records, total_pages and limit must be numbers')]],
    ['total_pages missing', orders('/orders?page=1&limit=2', 2, { ...p(5, 3, 2, 2, null), total_pages: undefined }), [error('pagination', 'total_records, total_pages and limit must be numbers')]],
    [
      'a larger limit than asked and no numbers: both said',
      orders('/orders?page=1&limit=1', 2, { ...p(5, 3, 2, 2, null), total_records: null }),
      [warning('pagination.limit', 'pagination.limit is 2 but the request asked for limit=1: pages are larger than asked'), error('pagination', 'total_records, total_pages and limit must be numbers')],
    ],
    ['a limit of 0: total_pages as reported', orders('/orders?page=1&limit=10', 0, p(0, 0, 0, null, null)), []],
    ['a limit of 0 and pages reported', orders('/orders', 0, p(3, 2, 0, 2, null)), []],
    ['as many items as the limit', orders('/orders?page=3&limit=2', 2, p(6, 3, 2, null, 2)), []],
    ['more items than the limit', orders('/orders?page=3&limit=2', 3, p(6, 3, 2, null, 2)), [error('content.orders', 'orders has 3 items, more than limit 2')]],
    ['next_page the last page', orders('/orders?page=2&limit=2', 2, p(6, 3, 2, 3, 1)), []],
    [
      'next_page past the last page on the last',
      orders('/orders?page=3&limit=2', 2, p(6, 3, 2, 4, 2)),
      [error('pagination.next_page', 'next_page 4 points past the last page 3'), warning('pagination.next_page', 'next_page is 4 on page 3 of 3; it must be null')],
    ],
    ['next_page wrong in the middle: stated', orders('/orders?page=2&limit=2', 2, p(6, 3, 2, 1, 1)), [error('pagination.next_page', 'next_page is 1 on page 2 of 3; it must be 3')]],
    ['previous_page not null on page 1: advice', orders('/orders?page=1&limit=2', 2, p(6, 3, 2, 2, 1)), [warning('pagination.previous_page', 'previous_page is 1 on page 1; it must be null')]],
    ['previous_page wrong on the last page', orders('/orders?page=3&limit=2', 2, p(6, 3, 2, null, 1)), [error('pagination.previous_page', 'previous_page is 1 on page 3; it must be 2')]],
    ['page 0: the neighbours are not judged', orders('/orders?page=0&limit=2', 2, p(6, 3, 2, 7, 7)), [error('pagination.next_page', 'next_page 7 points past the last page 3')]],
    ['page 1.5: the neighbours are not judged', orders('/orders?page=1.5&limit=2', 1, p(6, 3, 2, 3, 3)), []],
    ['a page past the last: the neighbours are not judged here', orders('/orders?page=4&limit=2', 0, p(6, 3, 2, null, 9)), []],
    ['no page asked: page 1', orders('/orders?limit=2', 2, p(6, 3, 2, 2, null)), []],
    ['no page asked, its neighbours wrong', orders('/orders?limit=2', 2, p(6, 3, 2, 3, null)), [error('pagination.next_page', 'next_page is 3 on page 1 of 3; it must be 2')]],
    ['a short page on the last page', orders('/orders?page=3&limit=2', 1, p(5, 3, 2, null, 2)), []],
    ['a full page before the last', orders('/orders?page=2&limit=2', 2, p(5, 3, 2, 3, 1)), []],
    ['a short page before the last', orders('/orders?page=2&limit=2', 1, p(5, 3, 2, 3, 1)), [error('content.orders', 'page 2 of 3 has 1 orders; every page before the last has limit (2)')]],
    [
      'no list beside the pagination: items are not judged',
      { operationId: 'listOrders', path: '/orders?page=1&limit=2', body: { success: true, message: 'ok', content: { count: 3, pagination: p(5, 3, 2, 2, null) } } },
      [],
    ],
    [
      'the list after the pagination',
      { operationId: 'listOrders', path: '/orders?page=1&limit=2', body: { success: true, message: 'ok', content: { pagination: p(5, 3, 2, 2, null), note: 'x', orders: [{}, {}, {}] } } },
      [error('content.orders', 'orders has 3 items, more than limit 2')],
    ],
  ])('%s', (_, given, want) => {
    expect(judged(given)).toEqual(want);
  });
});
