// `sort_by` is stated twice in the spec: as `contentSchema` (the parsed object) and as a `pattern` on the
// text (for the generators and validators that ignore contentSchema). The pattern must be exact: it names
// exactly the sortable fields of `contentSchema.propertyNames`, and the sandbox accepts a sort_by exactly
// when the pattern matches it (a JSON parser alone would also take tabs, newlines and `\u` escapes, which
// a pattern-driven generator must never be told are fine, and which it never sends).
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbench } from '../../workbench/index.js';
import { documents } from '../../scripts/lib/repo.js';
import { anonymous, call, q, startSandbox } from './helpers.js';

interface SortParameter {
  name: string;
  in: string;
  schema: { pattern: string; contentSchema: { propertyNames: { enum: string[] } } };
}

const doc = (await $RefParser.dereference(documents.storefront)) as { paths: Record<string, Record<string, { operationId: string; parameters?: SortParameter[] }>> };
const sorts = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.values(item).flatMap((op) => (op.parameters ?? []).filter((p) => p.name === 'sort_by' && p.in === 'query').map((p) => ({ path, operationId: op.operationId, parameter: p }))),
);

// The pattern's field alternatives, read back out of it: `["](a|b|c)["]`.
function patternFields(pattern: string): string[][] {
  return [...pattern.matchAll(/\["\]\(([^)]*)\)\["\] \*:/g)].map((m) => m[1].split('|').map((f) => f.replace(/\\\./g, '.')));
}

describe('sort_by pattern names exactly the sortable fields', () => {
  it('finds the three sort_by parameters', () => {
    expect(sorts.map((s) => s.operationId).sort()).toEqual(['listOrders', 'listProducts', 'listSimilarProducts']);
  });

  it.each(sorts.map((s) => [s.operationId, s.parameter] as const))('%s', (_op, parameter) => {
    const lists = patternFields(parameter.schema.pattern);
    expect(lists).toHaveLength(2); // the first member and every further one
    for (const fields of lists) expect(fields).toEqual(parameter.schema.contentSchema.propertyNames.enum);
  });
});

let wb: Workbench;
let auth: Record<string, string>;
beforeAll(async () => {
  wb = await startSandbox({ webhooks: false });
  ({ auth } = await anonymous(wb));
});
afterAll(async () => wb?.close());

const products = sorts.find((s) => s.operationId === 'listProducts')!;
const candidates = [
  '{}',
  '{ }',
  '{"name":"asc"}',
  ' { "name" : "asc" , "pricing.selling_price" : "desc" } ',
  '{"rating":"desc","name":"asc","name":"desc"}',
  '{"name":\t"asc"}',
  '{"name":"asc"}\n',
  '\r\n{"name":"asc"}',
  '{"n\\u0061me":"asc"}',
  '{"name":"\\u0061sc"}',
  '{"name":"ASC"}',
  '{"colour":"asc"}',
  '{"name":"asc",}',
  '{"name":"asc"',
  '["name"]',
  '"name"',
  '',
  ' ',
  '{"name":"asc"}{}',
  '{"name":{"asc":1}}',
  '{\u00a0"name":"asc"}',
  '{"name"\u000b:"asc"}',
];

describe('the sandbox accepts a sort_by exactly when the pattern matches it', () => {
  const pattern = new RegExp(products.parameter.schema.pattern, 'u');
  it.each(candidates.map((c) => [JSON.stringify(c), pattern.test(c), c] as const))('%s (pattern matches: %s)', async (_shown, matches, sortBy) => {
    const r = await call(wb, 'listProducts', 'GET', `/catalog/products${q({ sort_by: sortBy, limit: 1 })}`, { headers: auth });
    expect(r.status, JSON.stringify(r.json)).toBe(matches ? 200 : 400);
    if (!matches) expect(r.json.content.error.details[0]).toMatchObject({ location: 'query', name: 'sort_by' });
  });

  it('names the pattern when the JSON is fine but not written as the pattern says', async () => {
    const r = await call(wb, 'listProducts', 'GET', `/catalog/products${q({ sort_by: '{"name":\t"asc"}' })}`, { headers: auth });
    expect(r.json.content.error.details[0].message).toMatch(/must match the parameter's pattern \(got "\{\\"name\\":\\t\\"asc\\"\}"\)/);
  });
});
