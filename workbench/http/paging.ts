// One paging rule for every list the workbench serves. The platform states `page >= 1` and `limit >= 1`
// and leaves the largest page size open; this project designs it (register: AD-080): at most
// MAX_PAGE_SIZE rows per page, a larger `limit` is answered with that many (and `pagination.limit` says
// so). A page far past the end is an empty page, never an offset a store cannot hold.

export const MAX_PAGE_SIZE = 100;
/** Larger than any list here; keeps offsets exact integers whatever `page` is. */
const MAX_OFFSET = 2 ** 31;

export interface PageWindow {
  page: number;
  /** Rows per page used for this response. */
  limit: number;
  offset: number;
}

/** `page` and `limit` as validated numbers (>= 1); fractional pages mean the page they fall in. */
export function pageWindow(page: number, limit: number): PageWindow {
  const whole = Math.floor(page);
  const used = Math.min(Math.floor(limit), MAX_PAGE_SIZE);
  return { page: whole, limit: used, offset: Math.min((whole - 1) * used, MAX_OFFSET) };
}

export function pagination(window: PageWindow, total: number) {
  const totalPages = Math.ceil(total / window.limit);
  return {
    total_records: total,
    total_pages: totalPages,
    limit: window.limit,
    next_page: window.page < totalPages ? window.page + 1 : null,
    previous_page: window.page > 1 ? window.page - 1 : null,
  };
}
