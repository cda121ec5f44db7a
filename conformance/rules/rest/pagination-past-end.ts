// pagination-past-end: a page past the last one is empty and has no next page (or the server rejects
// it with a documented 4XX, which status-documented judges): total_pages and total_records (section 2.1
// of the platform's interface document) say there is nothing there.
import { problem, skip } from '../model.js';
import type { RestRule } from '../observations/rest.js';
import { pageOf } from './pagination.js';

export const paginationPastEnd: RestRule = {
  id: 'pagination-past-end',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 2.1' },
  summary: 'A page past the last one is empty with next_page null (or a documented 4XX).',
  appliesTo: 'all',
  check({ request, live }) {
    const page = pageOf(request.url, live.status, live.body);
    if (!page || typeof page.pagination.total_pages !== 'number') return skip('not a list page with total_pages');
    const last = Math.max(page.pagination.total_pages, 1);
    if (!(page.requested > last)) return skip('not a page past the last one');
    const n = page.items?.length ?? 0;
    const next = page.pagination.next_page;
    if (n === 0 && next === null) return [];
    return [problem('page', `page ${page.requested} is past the last page ${last} but the response has ${n} ${page.itemsKey ?? 'items'} and next_page ${JSON.stringify(next)}`)];
  },
};
