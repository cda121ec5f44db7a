// Every named example of every response, request body and webhook message validates with the
// generated validator of its schema; mutated examples fail with a readable error.
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { loadDereferenced } from '../../scripts/lib/load-spec.js';
import { loadOperationValidators, validateRequestBody, validateResponse, validateWebhookDelivery, type ApiName, type ValidationResult } from '../../src/validators/index.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface ExampleCase {
  api: ApiName;
  operationId: string;
  status: string | null; // null: request body
  name: string;
  value: unknown;
}

async function openapiExamples(api: ApiName): Promise<ExampleCase[]> {
  const doc = await loadDereferenced(api);
  const cases: ExampleCase[] = [];
  for (const item of Object.values<any>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      for (const [name, ex] of Object.entries<any>(op.requestBody?.content?.['application/json']?.examples ?? {})) {
        cases.push({ api, operationId: op.operationId, status: null, name, value: ex.value });
      }
      for (const [status, response] of Object.entries<any>(op.responses)) {
        for (const [name, ex] of Object.entries<any>(response.content?.['application/json']?.examples ?? {})) {
          cases.push({ api, operationId: op.operationId, status, name, value: ex.value });
        }
      }
    }
  }
  return cases;
}

/** The same check through the operation's own generated module, as the typed client runs it. */
async function viaOperationModule(api: ApiName, operationId: string, status: string | null, value: unknown): Promise<ValidationResult> {
  const own = await loadOperationValidators(api, operationId);
  if (!own) throw new Error(`no validator module for ${api} ${operationId}`);
  return status === null ? own.validateRequestBody(value) : own.validateResponse(status, value);
}

function responseCount(doc: any): number {
  let count = 0;
  for (const item of Object.values<any>(doc.paths)) for (const m of METHODS) if (item[m]) count += Object.keys(item[m].responses).length;
  return count;
}

describe.each(['storefront', 'admin'] as const)('%s examples', async (api) => {
  const cases = await openapiExamples(api);
  const doc = await loadDereferenced(api);

  it('has a named example for every response of every operation', () => {
    const missing: string[] = [];
    for (const item of Object.values<any>(doc.paths)) {
      for (const m of METHODS) {
        const op = item[m];
        if (!op) continue;
        for (const [status, response] of Object.entries<any>(op.responses)) {
          const examples = response.content?.['application/json']?.examples ?? {};
          if (Object.keys(examples).length === 0) missing.push(`${op.operationId} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(responseCount(doc));
  });

  it.each(cases.map((c) => [`${c.operationId} ${c.status ?? 'request'} ${c.name}`, c] as const))('%s validates (all-operations and per-operation module)', async (_label, c) => {
    const result = c.status === null ? validateRequestBody(c.api, c.operationId, c.value) : validateResponse(c.api, c.operationId, c.status, c.value);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(await viaOperationModule(c.api, c.operationId, c.status, c.value)).toEqual(result);
  });
});

describe('webhook message examples', async () => {
  const doc = await loadDereferenced('webhooks');
  const messages = Object.entries<any>(doc.components.messages);
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
  ajvFormats.default(ajv);

  it('gives every message at least one named example', () => {
    const without = messages.filter(([, m]) => !(m.examples?.length > 0) || m.examples.some((e: any) => !e.name)).map(([k]) => k);
    expect(without).toEqual([]);
  });

  it.each(messages.map(([key, m]) => [key, m] as const))('%s: examples validate (payload and headers)', (_key, message) => {
    const headers = message.headers ? ajv.compile(message.headers) : undefined;
    for (const example of message.examples) {
      const result = validateWebhookDelivery(example.payload);
      expect(result.valid ? [] : result.errors, example.name).toEqual([]);
      if (headers && example.headers) expect(headers(example.headers) ? [] : headers.errors, `${example.name} headers`).toEqual([]);
    }
  });
});

// Mutations: each must be rejected, with an error that says where and what.
const mutations: Array<[string, (v: any) => void, RegExp]> = [
  ['success flipped to a string', (v) => (v.success = 'true'), /\/success/],
  ['required message removed', (v) => delete v.message, /message/],
  ['content replaced by a number', (v) => (v.content = 7), /\/content/],
];

describe('mutated examples fail with readable errors', async () => {
  const cases = (await openapiExamples('storefront')).filter((c) => c.status?.startsWith('2'));
  it.each(cases.flatMap((c) => mutations.map(([what, mutate, where]) => [`${c.operationId} ${c.name}: ${what}`, c, mutate, where] as const)))(
    '%s',
    async (_label, c, mutate, where) => {
      const value = structuredClone(c.value);
      mutate(value);
      const result = validateResponse(c.api, c.operationId, c.status!, value);
      expect(result.valid).toBe(false);
      if (!result.valid) expect(result.errors.map((e) => `${e.path} ${e.message}`).join('\n')).toMatch(where);
      expect(await viaOperationModule(c.api, c.operationId, c.status, value)).toEqual(result);
    },
  );

  it('rejects a wrong type deep inside a list item, naming the path', () => {
    const list = cases.find((c) => c.operationId === 'listProducts')!;
    const value: any = structuredClone(list.value);
    value.content.products[0].pricing.selling_price = '499.00';
    const result = validateResponse('storefront', 'listProducts', '200', value);
    expect(result.valid).toBe(false);
    if (!result.valid) {
      expect(result.errors[0].path).toBe('/content/products/0/pricing/selling_price');
      expect(result.errors[0].expected).toBe('number');
      expect(result.errors[0].got).toContain('string');
    }
  });

  it('rejects an impossible date, naming the format', () => {
    const list = cases.find((c) => c.operationId === 'listProducts')!;
    const value: any = structuredClone(list.value);
    const path = findDate(value, '');
    if (!path) throw new Error('the listProducts example has no date field');
    setAt(value, path, '2025-02-30');
    const result = validateResponse('storefront', 'listProducts', '200', value);
    expect(result.valid).toBe(false);
    if (!result.valid) {
      expect(result.errors[0].path).toBe(path);
      expect(result.errors[0].message).toBe('must match format "date"');
      expect(result.errors[0].got).toBe('string "2025-02-30"');
    }
  });

  it('rejects a value outside a closed enum, naming the allowed values', async () => {
    const errors = (await openapiExamples('storefront')).find((c) => c.operationId === 'listProducts' && c.status === '400')!;
    const value: any = structuredClone(errors.value);
    value.content.error.details[0].location = 'cookie';
    const result = validateResponse('storefront', 'listProducts', '400', value);
    expect(result.valid).toBe(false);
    if (!result.valid) {
      expect(result.errors[0].path).toBe('/content/error/details/0/location');
      expect(result.errors[0].message).toMatch(/one of .*query/);
      expect(result.errors[0].got).toBe('string "cookie"');
    }
  });
});

/** The pointer of the first `YYYY-MM-DD` string in `node`. */
function findDate(node: unknown, at: string): string | undefined {
  if (typeof node === 'string') return /^\d{4}-\d\d-\d\d$/.test(node) ? at : undefined;
  if (!node || typeof node !== 'object') return undefined;
  for (const [key, value] of Object.entries(node)) {
    const found = findDate(value, `${at}/${key}`);
    if (found) return found;
  }
  return undefined;
}

function setAt(root: any, pointer: string, value: unknown): void {
  const keys = pointer.split('/').slice(1);
  const last = keys.pop()!;
  keys.reduce((node, key) => node[key], root)[last] = value;
}
