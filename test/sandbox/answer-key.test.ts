// issue 39 item 5: the sandbox's answer cache keys a read by every parameter its operation declares in the
// spec (workbench/sandbox/operations.ts answerKey, from the generated operation table), never by a list kept
// by hand: a parameter added to the spec is in the key with no line of the sandbox changed (the table below
// is the spec's, so a new parameter gets its case here too). Two requests share a cached answer only when
// nothing they carry differs; over HTTP, lists answer as before with the derived key.
import { storefrontOperations } from 'storefront-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerKey } from '../../workbench/sandbox/operations.js';
import type { Workbench } from '../../workbench/index.js';
import { anonymous, http, startSandbox, storefront } from './helpers.js';

type OperationId = keyof typeof storefrontOperations;
const reads = (Object.keys(storefrontOperations) as OperationId[]).filter((id) => storefrontOperations[id].method === 'get');
const parametersOf = (id: OperationId) => storefrontOperations[id].parameters as ReadonlyArray<{ name: string; in: string }>;

/** A request as the pipeline hands it to a handler, with `set` (parameter name -> values) applied. */
function requestOf(id: OperationId, set: Record<string, string[]> = {}) {
  const query = new URLSearchParams();
  const params: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const p of parametersOf(id)) {
    const values = set[p.name];
    if (!values) continue;
    if (p.in === 'query') for (const v of values) query.append(p.name, v);
    else if (p.in === 'path') params[p.name] = values[0]!;
    else if (p.in === 'header') headers[p.name] = values[0]!;
  }
  return { query, params, headers };
}

describe('issue 39 item 5: the answer cache key is derived from the declared parameters', () => {
  it('covers reads with parameters of every kind (query, path, header)', () => {
    const kinds = new Set(reads.flatMap((id) => parametersOf(id).map((p) => p.in)));
    expect([...kinds].sort()).toEqual(['header', 'path', 'query']);
  });

  it.each(reads.flatMap((id) => parametersOf(id).map((p) => [id, p.name, p.in] as const)))('%s: %s (%s) is part of the key', (id, name) => {
    const base = answerKey(id, requestOf(id));
    const withValue = answerKey(id, requestOf(id, { [name]: ['a'] }));
    expect(withValue).not.toBe(base);
    expect(answerKey(id, requestOf(id, { [name]: ['b'] }))).not.toBe(withValue);
    // Absent and empty are two requests (an empty sort_by is a 400, a missing one the default order).
    expect(answerKey(id, requestOf(id, { [name]: [''] }))).not.toBe(base);
    // The same request, the same key.
    expect(answerKey(id, requestOf(id, { [name]: ['a'] }))).toBe(withValue);
  });

  it('takes repeated query values as sent: their order and their repeats are part of the key', () => {
    const key = (values: string[]) => answerKey('listProducts', requestOf('listProducts', { category_id: values }));
    expect(key(['a', 'b'])).not.toBe(key(['b', 'a']));
    expect(key(['a', 'a'])).not.toBe(key(['a']));
  });

  it('a normalized parameter counts for what it stands for, and the caller\'s part is in the key', () => {
    const group = (value: string[] | undefined, normalized: string) => answerKey('listProducts', requestOf('listProducts', value ? { 'x-customer-group-id': value } : {}), { 'x-customer-group-id': normalized });
    expect(group(['cg_unknown'], '')).toBe(group(undefined, ''));
    expect(group(['cg_1'], 'cg_1')).not.toBe(group(undefined, ''));
    const orders = (visible: boolean) => answerKey('listOrders', requestOf('listOrders', { user_id: ['usr_1'] }), {}, [visible]);
    expect(orders(true)).not.toBe(orders(false));
  });
});

describe('issue 39 item 5: over HTTP, lists keyed by the derived key answer as the requests ask', () => {
  let wb: Workbench;
  let auth: Record<string, string>;
  beforeAll(async () => {
    wb = await startSandbox();
    ({ auth } = await anonymous(wb));
  });
  afterAll(async () => {
    await wb?.close();
  });

  it('an empty sort_by after the same list without one is refused, and the cached list is unchanged after it', async () => {
    const list = `${storefront(wb)}/catalog/products?limit=3`;
    const first = await http(list, 'GET', { headers: auth });
    expect(first.status).toBe(200);
    const empty = await http(`${list}&sort_by=`, 'GET', { headers: auth });
    expect(empty.status).toBe(400);
    expect(empty.json.success).toBe(false);
    const again = await http(list, 'GET', { headers: auth });
    expect(again.text).toBe(first.text);
  });

  it('a category filter added to a cached list changes the answer', async () => {
    const all = await http(`${storefront(wb)}/catalog/products?limit=50`, 'GET', { headers: auth });
    const category = all.json.content.products[0].category_ids?.[0] ?? all.json.content.products[0].categories?.[0]?.id;
    expect(typeof category).toBe('string');
    const some = await http(`${storefront(wb)}/catalog/products?limit=50&category_id=${encodeURIComponent(category)}`, 'GET', { headers: auth });
    expect(some.status).toBe(200);
    expect(some.json.content.pagination.total_records).toBeLessThan(all.json.content.pagination.total_records);
  });
});
