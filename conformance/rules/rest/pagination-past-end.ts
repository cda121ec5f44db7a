// pagination-past-end: a page past the last one is empty and has no next page (or the server rejects
// it with a documented 4XX, which status-documented judges).
import type { Rule } from '../../rest/types.js';
import { pageOf } from './pagination.js';

export const paginationPastEnd: Rule = {
  id: 'pagination-past-end',
  severity: 'error',
  summary: 'A page past the last one is empty with next_page null (or a documented 4XX).',
  check({ request, live }) {
    const page = pageOf(request.url, live.status, live.body);
    if (!page || typeof page.pagination.total_pages !== 'number') return [];
    const last = Math.max(page.pagination.total_pages, 1);
    if (!(page.requested > last)) return [];
    const n = page.items?.length ?? 0;
    const next = page.pagination.next_page;
    if (n === 0 && next === null) return [];
    return [`page ${page.requested} is past the last page ${last} but the response has ${n} ${page.itemsKey ?? 'items'} and next_page ${JSON.stringify(next)}`];
  },
};
