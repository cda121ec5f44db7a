// The run-time contract model (workbench/contract/model.ts): each document is read once per process.
// The workbench (sandbox, webhook simulator, Prism) started in process and certified in process, with the
// generative phase, reads storefront.yaml and admin.yaml exactly once; a second read anywhere fails here.
// Then what the model answers: the URL match, page limits, event families, the allOf merge.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { contractModel, documentLoads, eventFamilies, forgetLoadedDocuments, loadContract, matchOperation, maxPageSize, mergeAllOf } from '../../workbench/contract/model.js';
import { MAX_PAGE_SIZE } from '../../workbench/http/paging.js';
import type { Workbench } from '../../workbench/index.js';
import { storefrontOperations, webhookEvents } from 'storefront-contract';

let wb: Workbench | undefined;
afterAll(async () => wb?.close());

describe('each document is read once per process', () => {
  it('the workbench started and certified in process (replay and generated requests) reads each document once', async () => {
    // A fresh copy of this repository's modules, as a new process has: test files share a worker
    // (vitest.config.ts), and a file run before this one may have read the documents already.
    vi.resetModules();
    const { documentLoads, loadContract } = await import('../../workbench/contract/model.js');
    expect(documentLoads()).toEqual({ storefront: 0, admin: 0, webhooks: 0 });
    const { certify } = await import('../../conformance/rest/certify.js');
    const { createWorkbench, sandboxApiKey } = await import('../../workbench/index.js');
    // Importing certification's rules has read storefront.yaml already (response-schemas.ts awaits it at load).
    expect(documentLoads()).toEqual({ storefront: 1, admin: 0, webhooks: 0 });
    wb = await createWorkbench({ port: 0, quiet: true, preloadPrism: true });
    const key = sandboxApiKey('demo-store');
    const { certificate } = await certify({ baseUrl: wb.url, apiKey: key, inputs: { restricted_api_key: key }, concurrency: 4, generate: 1, seed: 7 });
    expect(certificate.exchanges.length).toBeGreaterThan(0);
    expect(certificate.generation?.cases).toBeGreaterThan(0);
    // Prism's operations are built from the model's document, so loading Prism reads nothing more.
    const { storefront, admin } = documentLoads();
    expect({ storefront, admin }).toEqual({ storefront: 1, admin: 1 });
    // Nothing at run time needs the AsyncAPI document yet (the event catalog is generated); a user that asks gets one read.
    const contract = await loadContract();
    expect(documentLoads()).toEqual({ storefront: 1, admin: 1, webhooks: 1 });
    expect(contract.webhooks.document.asyncapi).toMatch(/^3\./);
  });

  it('counts reads, not calls: a second call is the same object; only a forgotten document is read again', async () => {
    const first = await contractModel('webhooks');
    const before = documentLoads().webhooks;
    expect(await contractModel('webhooks')).toBe(first);
    expect(documentLoads().webhooks).toBe(before);
    forgetLoadedDocuments();
    const again = await contractModel('webhooks');
    expect(again).not.toBe(first);
    expect(documentLoads().webhooks).toBe(before + 1);
  });
});

describe('no read beside the model', () => {
  // The counter sees the model's reads only: a tool that parsed a document itself would go unseen, so no
  // run-time file but the model may load a YAML parser or a $ref resolver (load.ts reads the bindings files).
  it('only workbench/contract/model.ts resolves documents; only conformance/rest/load.ts (bindings) and workbench/contract/register.ts (the register of designed decisions) parse other YAML', () => {
    const files = ['workbench', 'conformance', 'cli'].flatMap((dir) =>
      readdirSync(path.join(repoRoot, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f)),
    );
    // A file that imports a YAML library only to write YAML (the Arazzo export) reads nothing: a reader
    // imports the ref resolver, or a YAML library and calls one of its parsers.
    const readers = files.filter((f) => {
      const text = readFileSync(path.join(repoRoot, f), 'utf8');
      if (/(from |import\()'@apidevtools\/json-schema-ref-parser'/.test(text)) return true;
      return /(from |import\()'(yaml|js-yaml)'/.test(text) && /\b(parse|parseDocument|parseAllDocuments|load|loadAll)\(/.test(text);
    });
    expect(readers.sort()).toEqual(['conformance/rest/load.ts', 'workbench/contract/model.ts', 'workbench/contract/register.ts']);
  });
});

describe('what the model answers', () => {
  it('has every operation of the generated table, with its template and statuses', async () => {
    const storefront = await contractModel('storefront');
    expect(storefront.operations.map((op) => op.operationId).sort()).toEqual(Object.keys(storefrontOperations).sort());
    for (const op of storefront.operations) {
      const meta = storefrontOperations[op.operationId as keyof typeof storefrontOperations];
      expect([op.method, op.path, Object.keys(op.responses)]).toEqual([meta.method, meta.path, [...meta.responses]]);
    }
  });

  it('matches a whole URL with the base path split by the library', async () => {
    const contract = await loadContract();
    const found = matchOperation(contract, 'GET', '/api/v1/demo%20store/storefront/pos/catalog/products/similar/');
    expect(found).toMatchObject({ kind: 'match', api: 'storefront', rawStoreId: 'demo%20store', innerPath: '/pos/catalog/products/similar' });
    const cart = matchOperation(contract, 'get', '/api/v1/s1/storefront/pos/carts/crt%2F1/evaluate-coupons');
    expect(cart.kind === 'match' && [cart.operation.operationId, cart.rawParams]).toEqual(['evaluateCartCoupons', { id: 'crt%2F1' }]);
    expect(matchOperation(contract, 'GET', '/api/v1/s1/storefront/pos/carts//evaluate-coupons').kind).toBe('no-path');
    expect(matchOperation(contract, 'DELETE', '/api/v1/s1/storefront/catalog/products')).toMatchObject({ kind: 'no-method', allowed: ['GET'] });
    expect(matchOperation(contract, 'GET', '/api/v2/s1/storefront/catalog/products').kind).toBe('no-api');
    expect(matchOperation(contract, 'GET', '/api/v1/s1/admin/webhooks')).toMatchObject({ kind: 'match', api: 'admin' });
  });

  it('reads page limits from the limit parameters and event families from the catalog', async () => {
    const { storefront, admin } = await loadContract();
    expect(maxPageSize(storefront)).toBe(100);
    expect(maxPageSize(admin)).toBe(100);
    expect(storefront.operation('listProducts')?.maxPageSize).toBe(100);
    expect(storefront.operation('createCustomer')?.maxPageSize).toBeUndefined();
    // The shared paging rule's constant (workbench/http/paging.ts, AD-080) must say what the documents say.
    expect(MAX_PAGE_SIZE).toBe(maxPageSize(admin));
    const families = eventFamilies();
    expect([...families.values()].flat().sort()).toEqual(webhookEvents.map((e) => e.event).sort());
    expect(families.get('orders')).toContain('order.created');
  });

  it('folds allOf members into one schema', () => {
    expect(mergeAllOf({ allOf: [{ type: 'object', properties: { a: {} }, required: ['a'] }, { properties: { b: {} }, required: ['b'] }], description: 'x' })).toEqual({
      type: 'object',
      description: 'x',
      properties: { a: {}, b: {} },
      required: ['a', 'b'],
    });
  });
});
