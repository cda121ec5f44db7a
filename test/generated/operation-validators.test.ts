// The per-operation validator modules: one loader per operation of each API, loaded once, and an
// unknown operation loads nothing.
import { describe, expect, it, vi } from 'vitest';
import { storefrontOperations } from '../../generated/operations/storefront.js';
import { adminOperations } from '../../generated/operations/admin.js';
import { loaders as storefrontLoaders } from '../../generated/validators/storefront/index.js';
import { loaders as adminLoaders } from '../../generated/validators/admin/index.js';
import { loadOperationValidators } from '../../src/validators/operation-validators.js';

describe('per-operation validator modules', () => {
  it('have a loader for every operation of each API, and no other', () => {
    expect(Object.keys(storefrontLoaders).sort()).toEqual(Object.keys(storefrontOperations).sort());
    expect(Object.keys(adminLoaders).sort()).toEqual(Object.keys(adminOperations).sort());
  });

  it('export a validator for each JSON response of their operation, under the all-operations names', async () => {
    const mod = await storefrontLoaders.listProducts();
    expect(Object.keys(mod).sort()).toEqual(storefrontOperations.listProducts.responses.map((status) => `listProducts_${status}`).sort());
  });

  it('load once: concurrent first calls share one import, later calls are synchronous', async () => {
    // Fresh modules, none loaded yet: test files share a worker (vitest.config.ts), and a file run
    // before this one may have loaded createWebhook's validators already.
    vi.resetModules();
    const { loadOperationValidators, loadedOperationValidators } = await import('../../src/validators/operation-validators.js');
    expect(loadedOperationValidators('admin', 'createWebhook')).toBeUndefined();
    const [a, b] = await Promise.all([loadOperationValidators('admin', 'createWebhook'), loadOperationValidators('admin', 'createWebhook')]);
    expect(a).toBeDefined();
    expect(b).toBe(a);
    expect(loadedOperationValidators('admin', 'createWebhook')).toBe(a);
    expect(a!.request).toBeTypeOf('function');
    expect(a!.validateRequestBody({}).valid).toBe(false);
  });

  it('load nothing for an operation the API does not have', async () => {
    expect(await loadOperationValidators('storefront', 'noSuchOperation')).toBeUndefined();
    expect(await loadOperationValidators('storefront', 'toString')).toBeUndefined();
  });
});
