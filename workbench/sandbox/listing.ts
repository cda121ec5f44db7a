// Lists: `page` and `limit` over the real set, `sort_by` (JSON object text mapping field -> asc|desc, keys
// applied in order, ties keep the list's own order) and the pagination block (seed 2.1, 4.1). Pages and the
// pagination block follow the workbench's one paging rule (`../http/paging.ts`: neighbours null at the ends,
// register SF-018; a page past the end empty, register SF-041). The pipeline has already checked the
// parameters against the spec (types, minimums, sort_by as an object of asc/desc); what is left here is the
// sandbox's own rule: which fields each list sorts on. An unknown field is a 400 naming the field and
// the fields there are.
import type { ErrorItem } from 'storefront-contract/contract';
import { DEFAULT_PAGE_SIZE, pageWindowOf, pagination, type PageWindow, type Pagination } from '../http/paging.js';

export type SortValue = string | number | null;
/** Sortable fields of one list: name -> how to read the value from an item. Maps, never object keys. */
export type SortFields<T> = ReadonlyMap<string, (item: T) => SortValue>;

/** `maxPageSize`: the spec's `x-max-page-size` (register SF-031): a larger `limit` gets that many rows, and says so. */
export function pageOf(query: URLSearchParams, maxPageSize: number): PageWindow {
  return pageWindowOf(query, DEFAULT_PAGE_SIZE, maxPageSize);
}

export class ListError extends Error {
  constructor(
    message: string,
    readonly details: ErrorItem[],
  ) {
    super(message);
  }
}

/** The sort keys in order; throws ListError for a field the list cannot sort on. */
export function parseSort<T>(raw: string | null, fields: SortFields<T>): Array<{ read: (item: T) => SortValue; desc: boolean; field: string }> {
  if (raw === null || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // The pipeline rejects this first; kept so the function stands on its own.
    throw new ListError('sort_by must be JSON object text such as {"selling_price":"asc"}.', [{ location: 'query', name: 'sort_by', message: 'must be JSON text' }]);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ListError('sort_by must be a JSON object mapping field names to "asc" or "desc".', [{ location: 'query', name: 'sort_by', message: 'must be a JSON object' }]);
  }
  const keys: Array<{ read: (item: T) => SortValue; desc: boolean; field: string }> = [];
  for (const [field, direction] of Object.entries(parsed)) {
    const read = fields.get(field);
    if (!read) {
      throw new ListError(`sort_by: cannot sort on "${field.slice(0, 60)}"; sortable fields are ${[...fields.keys()].join(', ')}.`, [
        { location: 'query', name: 'sort_by', message: `unknown sort field "${field.slice(0, 60)}" (sortable: ${[...fields.keys()].join(', ')})` },
      ]);
    }
    if (direction !== 'asc' && direction !== 'desc') {
      throw new ListError(`sort_by: the direction of "${field}" must be "asc" or "desc".`, [{ location: 'query', name: 'sort_by', message: `direction of "${field}" must be asc or desc` }]);
    }
    keys.push({ read, desc: direction === 'desc', field });
  }
  return keys;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compare(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return 1; // nulls last in both directions
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** A stable sort by the keys in order; `items` is not changed. */
export function sortBy<T>(items: readonly T[], keys: ReadonlyArray<{ read: (item: T) => SortValue; desc: boolean }>): T[] {
  if (keys.length === 0) return [...items];
  const rows = items.map((item, index) => ({ item, index, values: keys.map((k) => k.read(item)) }));
  rows.sort((x, y) => {
    for (let i = 0; i < keys.length; i++) {
      const a = x.values[i];
      const b = y.values[i];
      if (a === null || b === null) {
        const c = compare(a, b);
        if (c !== 0) return c;
        continue;
      }
      const c = compare(a, b);
      if (c !== 0) return keys[i].desc ? -c : c;
    }
    return x.index - y.index;
  });
  return rows.map((r) => r.item);
}

export function paginate<T>(items: readonly T[], page: PageWindow): { items: T[]; pagination: Pagination } {
  return { items: items.slice(page.offset, page.offset + page.limit), pagination: pagination(page, items.length) };
}
