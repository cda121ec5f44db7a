// pagination-past-end: a page past the last one is empty and has no next page (or the server rejects
// it with a documented 4XX, which status-documented judges): total_pages and total_records (section 2.1
// of the platform's interface document) say there is nothing there. Its previous_page is advice only:
// the last page (null for an empty list) is designed here (spec/inferred, SF-041), not stated.
import { advisory, problem, skip } from '../model.js';
import type { RestRule } from '../observations/rest.js';
import { pageOf } from './pagination.js';

export const paginationPastEnd: RestRule = {
  id: 'pagination-past-end',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 2.1' },
  summary: 'A page past the last one is empty with next_page null (or a documented 4XX); a previous_page other than the last page is advice (SF-041).',
  appliesTo: 'all',
  check({ request, live }) {
    const page = pageOf(request.url, live.status, live.body);
    if (!page || typeof page.pagination.total_pages !== 'number') return skip('not a list page with total_pages');
    const last = Math.max(page.pagination.total_pages, 1);
    if (!(page.requested > last)) return skip('not a page past the last one');
    const n = page.items?.length ?? 0;
    const next = page.pagination.next_page;
    if (!(n === 0 && next === null)) return [problem('page', `page ${page.requested} is past the last page ${last} but the response has ${n} ${page.itemsKey ?? 'items'} and next_page ${JSON.stringify(next)}`)];
    // What previous_page is past the end the platform does not say: advice on the design (SF-041).
    const { total_records: records, previous_page: previous } = page.pagination;
    if (typeof records !== 'number') return [];
    const wanted = records === 0 ? null : page.pagination.total_pages;
    if (previous === wanted) return [];
    return [advisory('pagination.previous_page', `previous_page is ${JSON.stringify(previous)} on page ${page.requested}, past the last page; designed here (SF-041), not stated by the platform: the last page (${JSON.stringify(wanted)}), so a client can step back to records`)];
  },
};
