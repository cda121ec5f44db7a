// One operation's validators, loaded on first use: a dynamic import of its own generated module
// (generated/validators/<api>/<operationId>.ts), once per process, for either API by name. The typed
// clients use operation-loader.ts with their own API's map instead, so a storefront app's bundle
// holds no reference to the Admin validators.
import { loaders as storefrontLoaders } from '../../generated/validators/storefront/index.js';
import { loaders as adminLoaders } from '../../generated/validators/admin/index.js';
import { loadedValidators, loadValidators, type OperationValidators, type ValidatorLoaders } from './operation-loader.js';
import type { ApiName } from './lookup.js';

export type { OperationValidators };

const loaders: Record<ApiName, ValidatorLoaders> = { storefront: storefrontLoaders, admin: adminLoaders };

/** The validators of an operation if they are already loaded: the synchronous fast path. */
export { loadedValidators as loadedOperationValidators };

/** Loads the validators of an operation (once; concurrent first calls share one import). Undefined for an unknown operation. */
export function loadOperationValidators(api: ApiName, operationId: string): Promise<OperationValidators | undefined> {
  return loadValidators(api, loaders[api], operationId);
}
