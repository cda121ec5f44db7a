// pagination: a list page is consistent with the request and with itself (section 2.1 of the platform's
// interface document): `total_pages` = ceil(`total_records` / `limit`), `previous_page`/`next_page`
// naming the neighbours of the requested page, no more items than `limit`, full pages before the last.
// The page is judged against the `limit` the server reports ("rows per page used for this response"):
// a server may cap the page size (the maximum is not stated), so a smaller limit than requested is fine;
// a larger one is advice. That the neighbours are null at the ends is designed (register SF-018), so a
// wrong value there is advice too.
import { advisory, problem, skip, type Finding } from '../model.js';
import type { RestRule } from '../observations/rest.js';
import { isObject } from '../shared/rest.js';

export interface Page {
  requested: number;
  requestedLimit?: number;
  pagination: Record<string, unknown>;
  itemsKey?: string;
  items?: unknown[];
}

/** The page of a 2XX list response, or undefined when the response has no `content.pagination`. */
export function pageOf(url: string, status: number, body: unknown): Page | undefined {
  if (status < 200 || status >= 300 || !isObject(body) || !isObject(body.content) || !isObject(body.content.pagination)) return undefined;
  const q = new URL(url).searchParams;
  const content = body.content;
  // The list beside the pagination (an object, checked above, so never this array).
  const itemsKey = Object.keys(content).find((k) => Array.isArray(content[k]));
  return {
    requested: q.has('page') ? Number(q.get('page')) : 1,
    requestedLimit: q.has('limit') ? Number(q.get('limit')) : undefined,
    pagination: content.pagination as Record<string, unknown>,
    itemsKey,
    items: itemsKey ? (content[itemsKey] as unknown[]) : undefined,
  };
}

export const pagination: RestRule = {
  id: 'pagination',
  target: 'rest',
  severity: 'error',
  source: { kind: 'stated', ref: 'section 2.1' },
  summary: 'Against the limit the server reports: total_pages = ceil(total_records / limit), next/previous name the neighbours of the page, full pages before the last.',
  appliesTo: 'all',
  check({ request, live }) {
    const page = pageOf(request.url, live.status, live.body);
    if (!page) return skip('not a list page (no content.pagination on a 2XX)');
    const { total_records: records, total_pages: pages, limit, next_page: next, previous_page: previous } = page.pagination;
    const findings: Finding[] = [];
    const asked = page.requestedLimit ?? NaN;
    if (Number.isFinite(asked) && typeof limit === 'number' && limit > asked) {
      findings.push(advisory('pagination.limit', `pagination.limit is ${limit} but the request asked for limit=${asked}: pages are larger than asked`));
    }
    if (typeof records !== 'number' || typeof pages !== 'number' || typeof limit !== 'number') {
      findings.push(problem('pagination', 'total_records, total_pages and limit must be numbers'));
      return findings;
    }
    // The neighbours are judged against the true page count, so a wrong total_pages is reported once.
    const last = limit > 0 ? Math.ceil(records / limit) : pages;
    if (pages !== last) findings.push(problem('pagination.total_pages', `total_pages is ${pages} but ceil(total_records ${records} / limit ${limit}) is ${last}`));
    const n = page.items?.length;
    if (n !== undefined && n > limit) findings.push(problem(`content.${page.itemsKey}`, `${page.itemsKey} has ${n} items, more than limit ${limit}`));
    if (typeof next === 'number' && next > last) findings.push(problem('pagination.next_page', `next_page ${next} points past the last page ${last}`));
    if (Number.isInteger(page.requested) && page.requested >= 1 && page.requested <= last) {
      const wantPrevious = page.requested > 1 ? page.requested - 1 : null;
      const wantNext = page.requested < last ? page.requested + 1 : null;
      // null at the ends is the designed part; naming the neighbour page is stated.
      const neighbour = (want: number | null) => (want === null ? advisory : problem);
      if (previous !== wantPrevious) findings.push(neighbour(wantPrevious)('pagination.previous_page', `previous_page is ${JSON.stringify(previous)} on page ${page.requested}; it must be ${JSON.stringify(wantPrevious)}`));
      if (next !== wantNext) findings.push(neighbour(wantNext)('pagination.next_page', `next_page is ${JSON.stringify(next)} on page ${page.requested} of ${last}; it must be ${JSON.stringify(wantNext)}`));
      if (n !== undefined && page.requested < last && n < limit) findings.push(problem(`content.${page.itemsKey}`, `page ${page.requested} of ${last} has ${n} ${page.itemsKey}; every page before the last has limit (${limit})`));
    }
    return findings;
  },
};
