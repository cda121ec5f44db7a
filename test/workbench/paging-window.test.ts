// The one paging rule (workbench/http/paging.ts) as functions: which rows a `page` and `limit` select and
// the `pagination` block that describes them, on both sides of every bound (the first and last page, one
// past the end, a page far past it, an empty list, the maximum page size). The lists that use the rule are
// tested over HTTP in paging.test.ts, test/simulator/paging.test.ts and test/sandbox/behaviour.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageWindow, pageWindowOf, pagination } from '../../workbench/http/paging.js';

const parameter = (name: string) => parse(readFileSync(new URL(`../../spec/openapi/components/parameters/${name}.yaml`, import.meta.url), 'utf8'));

describe('the paging rule', () => {
  it('its sizes are the contract\'s: x-max-page-size of the lists\' limit, and the limit the spec\'s examples show', () => {
    for (const name of ['Limit', 'WebhookListLimit']) {
      const limit = parameter(name);
      expect([name, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE]).toEqual([name, limit['x-max-page-size'], limit.example]);
    }
  });

  const windows: Array<[string, { page: number; limit: number; max?: number; want: { page: number; limit: number; offset: number } }]> = [
    ['the first page', { page: 1, limit: 20, want: { page: 1, limit: 20, offset: 0 } }],
    ['page 3 of 10 rows each', { page: 3, limit: 10, want: { page: 3, limit: 10, offset: 20 } }],
    ['a fractional page is the page it falls in', { page: 2.999, limit: 10, want: { page: 2, limit: 10, offset: 10 } }],
    ['a page below 1 is page 1', { page: 0.5, limit: 10, want: { page: 1, limit: 10, offset: 0 } }],
    ['a fractional limit is the whole rows in it', { page: 2, limit: 2.5, want: { page: 2, limit: 2, offset: 2 } }],
    ['a limit below 1 is 1', { page: 3, limit: 0.5, want: { page: 3, limit: 1, offset: 2 } }],
    ['the maximum page size itself', { page: 2, limit: 100, want: { page: 2, limit: 100, offset: 100 } }],
    ['a limit above the maximum page size is the maximum', { page: 2, limit: 101, want: { page: 2, limit: 100, offset: 100 } }],
    ['an operation\'s own maximum', { page: 2, limit: 60, max: 50, want: { page: 2, limit: 50, offset: 50 } }],
    ['under an operation\'s own maximum', { page: 2, limit: 49, max: 50, want: { page: 2, limit: 49, offset: 49 } }],
    ['an offset at the cap', { page: 2 ** 31 + 1, limit: 1, want: { page: 2 ** 31 + 1, limit: 1, offset: 2 ** 31 } }],
    ['an offset just under the cap', { page: 2 ** 31, limit: 1, want: { page: 2 ** 31, limit: 1, offset: 2 ** 31 - 1 } }],
    ['a page far past any list: the offset is capped, an exact integer', { page: 1e20, limit: 100, want: { page: 1e20, limit: 100, offset: 2 ** 31 } }],
  ];
  it.each(windows)('pageWindow: %s', (_, { page, limit, max, want }) => {
    expect(max === undefined ? pageWindow(page, limit) : pageWindow(page, limit, max)).toEqual(want);
  });

  it('pageWindowOf reads page and limit from the query: absent, page 1 and the list\'s default limit', () => {
    const of = (query: string, defaultLimit: number, max?: number) => (max === undefined ? pageWindowOf(new URLSearchParams(query), defaultLimit) : pageWindowOf(new URLSearchParams(query), defaultLimit, max));
    expect(of('', 20)).toEqual({ page: 1, limit: 20, offset: 0 });
    expect(of('', 7)).toEqual({ page: 1, limit: 7, offset: 0 });
    expect(of('page=3', 7)).toEqual({ page: 3, limit: 7, offset: 14 });
    expect(of('limit=5', 7)).toEqual({ page: 1, limit: 5, offset: 0 });
    expect(of('page=4&limit=5', 7)).toEqual({ page: 4, limit: 5, offset: 15 });
    expect(of('page=2.5&limit=1000', 7)).toEqual({ page: 2, limit: 100, offset: 100 });
    expect(of('page=2&limit=1000', 7, 30)).toEqual({ page: 2, limit: 30, offset: 30 });
  });

  // 5 rows, 2 a page: pages 1..3.
  const blocks: Array<[string, { page: number; limit: number; total: number; next: number | null; previous: number | null; pages: number }]> = [
    ['the first page', { page: 1, limit: 2, total: 5, next: 2, previous: null, pages: 3 }],
    ['a middle page', { page: 2, limit: 2, total: 5, next: 3, previous: 1, pages: 3 }],
    ['the last page', { page: 3, limit: 2, total: 5, next: null, previous: 2, pages: 3 }],
    ['one past the end: the previous page is the last', { page: 4, limit: 2, total: 5, next: null, previous: 3, pages: 3 }],
    ['far past the end: the previous page is still the last', { page: 1e20, limit: 2, total: 5, next: null, previous: 3, pages: 3 }],
    ['a list that fills its pages exactly', { page: 2, limit: 2, total: 4, next: null, previous: 1, pages: 2 }],
    ['one page only', { page: 1, limit: 20, total: 20, next: null, previous: null, pages: 1 }],
    ['an empty list: no pages, no neighbours', { page: 1, limit: 20, total: 0, next: null, previous: null, pages: 0 }],
    ['an empty list past the end: no neighbours either', { page: 3, limit: 20, total: 0, next: null, previous: null, pages: 0 }],
  ];
  it.each(blocks)('pagination: %s', (_, { page, limit, total, next, previous, pages }) => {
    expect(pagination({ page, limit }, total)).toEqual({ total_records: total, total_pages: pages, limit, next_page: next, previous_page: previous });
  });
});
