// Adding a storefront endpoint to the spec is not done until the sandbox answers it from its world: this
// fails, naming the operation, when an operation of the generated table has no live handler (it would
// fall back to the spec's examples silently), or a handler names no operation of the spec.
import { describe, expect, it } from 'vitest';
import { storefrontOperations } from 'storefront-contract';
import { createSandbox } from '../../workbench/sandbox/index.js';
import { sandboxOperations } from '../../workbench/sandbox/operations.js';
import { liveKey } from '../../workbench/http/extension.js';

describe('the sandbox answers every storefront operation', () => {
  it('one live handler per operationId of the spec, and none other', async () => {
    const { sandbox } = await createSandbox();
    const handled = [...sandboxOperations(sandbox).keys()].sort();
    const stated = Object.values(storefrontOperations).map((op) => liveKey('storefront', op.operationId)).sort();
    expect(handled).toEqual(stated);
  });
});
