// The sortable fields are stated twice by design: in the spec (each list's `sort_by` parameter, its
// `contentSchema.propertyNames.enum`, so generators send only sorts a server can do) and in the sandbox
// (how each field is read from a record). This test fails when either gains or loses a field alone, and
// when an operation with a `sort_by` parameter has no sandbox sort table.
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { describe, expect, it } from 'vitest';
import { sortFields } from '../../workbench/sandbox/operations.js';
import { documents } from '../../scripts/lib/repo.js';

interface Parameter {
  name: string;
  in: string;
  schema?: { contentSchema?: { propertyNames?: { enum?: string[] } } };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
}

const doc = (await $RefParser.dereference(documents.storefront)) as { paths: Record<string, Record<string, Operation>> };
const cases = Object.values(doc.paths)
  .flatMap((item) => Object.values(item))
  .flatMap((op) => (op.parameters ?? []).filter((p) => p.name === 'sort_by' && p.in === 'query').map((p) => [op.operationId, p] as const));

describe('sort fields: spec and sandbox agree', () => {
  it('finds the sort_by parameters and the operations using them', () => {
    expect(cases.map(([operationId]) => operationId)).toEqual(expect.arrayContaining(['listProducts', 'listOrders']));
  });

  it.each(cases)('%s', (operationId, parameter) => {
    const table = sortFields[operationId];
    expect(table, `workbench/sandbox/operations.ts sortFields has no table for ${operationId}`).toBeDefined();
    expect([...table.keys()].sort()).toEqual([...(parameter.schema?.contentSchema?.propertyNames?.enum ?? [])].sort());
  });
});
