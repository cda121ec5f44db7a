// Numbers at the edges of JavaScript, judged by the generated validators and by the workbench's Ajv
// (the one behind its request and answer checks). Whole numbers of 1e21 and up are whole numbers
// (`multipleOf: 1` under Ajv's default check refuses them, issue #2561); Infinity and NaN are not JSON
// numbers and are refused (`strict: false` alone would let them pass `type: number`). JSON cannot carry
// Infinity or NaN, so the values are built in JavaScript, as an app that validates its own objects does.
import { describe, expect, it } from 'vitest';
import { validateResponse } from '../../src/validators/index.js';
import { compile } from '../../workbench/mock/ajv.js';
import { loadDocumentModel } from '../../workbench/mock/spec-model.js';
import { documents } from '../../scripts/lib/repo.js';

const page = (pagination: Record<string, unknown>) => ({
  success: true,
  message: 'Products fetched successfully',
  content: { products: [], pagination: { total_records: 0, total_pages: 0, limit: 20, next_page: null, previous_page: null, ...pagination } },
});

const model = await loadDocumentModel('storefront', documents.storefront);
const listProducts = model.operations.find((op) => op.operationId === 'listProducts')!;
const paginationSchema = listProducts.responses['200'].content['application/json'].schema;
const pageParameter = listProducts.parameters.find((p) => p.name === 'page')!.schema;

describe('whole numbers of 1e21 and up (multipleOf: 1)', () => {
  it.each([1e21, 1e21 + 2 ** 20, 2 ** 80, 1.5e300])('%s records validate', (n) => {
    const r = validateResponse('storefront', 'listProducts', 200, page({ total_records: n, total_pages: n }));
    expect(r.valid, JSON.stringify(r)).toBe(true);
    expect(compile(paginationSchema)(page({ total_records: n, total_pages: n }))).toBe(true);
  });

  it.each([0.5, 20.25, 1e15 + 0.5, 3.000001])('%s records are refused (not a whole number)', (n) => {
    expect(validateResponse('storefront', 'listProducts', 200, page({ total_records: n })).valid).toBe(false);
    expect(compile(paginationSchema)(page({ total_records: n }))).toBe(false);
  });
});

describe('Infinity and NaN are refused', () => {
  it.each([Infinity, -Infinity, NaN])('%s in a number field: generated validator', (n) => {
    expect(validateResponse('storefront', 'listProducts', 200, page({ total_records: n })).valid).toBe(false);
    expect(validateResponse('storefront', 'listProducts', 200, page({ next_page: n })).valid).toBe(false);
  });

  it.each([Infinity, -Infinity, NaN])('%s in a number field: the workbench request and answer validator', (n) => {
    expect(compile(pageParameter)(n)).toBe(false);
    expect(compile(pageParameter)(2)).toBe(true);
    expect(compile(paginationSchema)(page({ total_records: n }))).toBe(false);
  });
});
