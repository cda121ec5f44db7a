// One paging rule for every list the workbench serves: the storefront sandbox's lists
// (`sandbox/listing.ts`), the mock's paged examples (`mock/paginate.ts`) and the Admin lists of the webhook
// simulator (`simulator/service.ts`). The platform states `page >= 1` (a number) and `limit >= 1` and leaves
// the largest page size open; this project designs it (registers SF-031, AD-080): at most MAX_PAGE_SIZE rows
// per page, a larger `limit` is answered with that many (and `pagination.limit` says so).
//
// Any `page` the parameter allows is answered (register SF-041): a fractional page is the page it falls in;
// a page past the last one is an empty page, never an offset a store cannot hold, with `next_page: null` and
// `previous_page` naming the last page (`total_pages`), or null when there are no rows. So the neighbours
// are always whole numbers within 1..total_pages, however large the page asked (1e20 never comes back).

import type { StorefrontComponents } from 'storefront-contract';

export const MAX_PAGE_SIZE = 100;
/** Rows per page when a request gives no `limit` (the spec's examples' 20). */
export const DEFAULT_PAGE_SIZE = 20;
/** Larger than any list here; keeps offsets exact integers whatever `page` is. */
const MAX_OFFSET = 2 ** 31;

export interface PageWindow {
  /** The page asked, a whole number >= 1 (possibly far past the end). */
  page: number;
  /** Rows per page used for this response. */
  limit: number;
  /** Index of the page's first row (capped: past the end of any list here). */
  offset: number;
}

/** The `pagination` block of a list answer: the spec's `Pagination` (the Admin lists share the schema). */
export type Pagination = StorefrontComponents['schemas']['Pagination'];

/**
 * `page` and `limit` as validated numbers (>= 1; the pipeline checked them against the spec); fractional
 * pages mean the page they fall in. `maxPageSize`: the operation's `x-max-page-size`.
 */
export function pageWindow(page: number, limit: number, maxPageSize = MAX_PAGE_SIZE): PageWindow {
  const whole = Math.max(1, Math.floor(page));
  const used = Math.max(1, Math.min(Math.floor(limit), maxPageSize));
  return { page: whole, limit: used, offset: Math.min((whole - 1) * used, MAX_OFFSET) };
}

/** The window of a list request's `page` and `limit` query parameters (absent: page 1, `defaultLimit` rows). */
export function pageWindowOf(query: URLSearchParams, defaultLimit: number, maxPageSize = MAX_PAGE_SIZE): PageWindow {
  const limit = query.get('limit');
  return pageWindow(Number(query.get('page') ?? 1), limit === null ? defaultLimit : Number(limit), maxPageSize);
}

export function pagination(window: Pick<PageWindow, 'page' | 'limit'>, total: number): Pagination {
  const totalPages = Math.ceil(total / window.limit);
  // Past the end, the previous page is the last one there is (none when the list is empty).
  const previous = Math.min(window.page - 1, totalPages);
  return {
    total_records: total,
    total_pages: totalPages,
    limit: window.limit,
    next_page: window.page < totalPages ? window.page + 1 : null,
    previous_page: previous >= 1 ? previous : null,
  };
}
