// The list operations' example is one page of a larger set (`total_records`). The mock honours `page`
// and `limit` over that set, so a front-end's pager works against it: the example's items stand for
// the first records, later records are copies of them with suffixed ids, and `pagination` is computed
// for the page asked (the workbench's one paging rule, `../http/paging.ts`). A request without `page` and
// `limit` gets the example byte for byte.
import { pageWindow, pagination, type Pagination } from '../http/paging.js';
import type { CachedResponse, OperationModel } from './spec-model.js';

/** Top-level item fields that identify a record; copies get a suffix so ids stay unique per page. */
const IDENTITY_FIELDS = ['id', 'sku', 'slug', 'order_number', 'product_id', 'variant_id'];

export function isPaginated(op: OperationModel): boolean {
  const names = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  return names.has('page') && names.has('limit');
}

function positive(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 1 ? n : undefined;
}

function recordAt(items: any[], index: number): any {
  const base = items[index % items.length];
  if (index < items.length) return base;
  const copy = structuredClone(base);
  for (const field of IDENTITY_FIELDS) {
    if (typeof copy[field] === 'string') copy[field] = `${copy[field]}-${index + 1}`;
  }
  return copy;
}

export function paginate(response: CachedResponse, query: URLSearchParams): CachedResponse {
  const page = positive(query.get('page'));
  const limit = positive(query.get('limit'));
  if (page === undefined && limit === undefined) return response;
  if (response.status < 200 || response.status >= 300) return response;
  let body: any;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return response;
  }
  const content = body?.content;
  const example: Pagination | undefined = content?.pagination;
  const listKey = content && Object.keys(content).find((k) => Array.isArray(content[k]));
  if (!example || !listKey || content[listKey].length === 0) return response;

  const items: any[] = content[listKey];
  const total = example.total_records;
  const window = pageWindow(page ?? 1, limit ?? example.limit);
  const slice: any[] = [];
  for (let i = window.offset; i < Math.min(window.offset + window.limit, total); i++) slice.push(recordAt(items, i));

  content[listKey] = slice;
  content.pagination = { ...example, ...pagination(window, total) };
  return { ...response, body: Buffer.from(JSON.stringify(body)) };
}
