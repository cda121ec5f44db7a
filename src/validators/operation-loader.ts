// One operation's validators, loaded on first use from a loader map (generated/validators/<api>/index.ts:
// operationId -> dynamic import of its module), once per process. The map is a parameter so that a
// caller importing one API's map (the storefront client's validation) never references the other's,
// and a bundler emits no chunk for the other API's validators.
import type { RawValidator, ValidatorLoader, ValidatorModule } from '../../generated/validators/raw-validator.js';
import { checkRequestBody, checkResponse, pickRequest, pickResponse, type ApiName, type ValidationResult } from './lookup.js';

export type ValidatorLoaders = Readonly<Record<string, ValidatorLoader>>;

export interface OperationValidators {
  readonly api: ApiName;
  readonly operationId: string;
  /** The validator of a response, by exact status, then its `NXX` range, then `default`. */
  response(status: number | string): RawValidator | undefined;
  /** The validator of the JSON request body, if the operation takes one. */
  readonly request: RawValidator | undefined;
  validateResponse(status: number | string, body: unknown): ValidationResult;
  validateRequestBody(body: unknown): ValidationResult;
}

// Shared by every caller, whichever map it passes: an operation's module is bound once.
const loaded = new Map<string, OperationValidators>();
const pending = new Map<string, Promise<OperationValidators | undefined>>();

function bind(api: ApiName, operationId: string, mod: ValidatorModule): OperationValidators {
  return {
    api,
    operationId,
    response: (status) => pickResponse(mod, operationId, status),
    request: pickRequest(mod, operationId),
    validateResponse: (status, body) => checkResponse(mod, operationId, status, body),
    validateRequestBody: (body) => checkRequestBody(mod, operationId, body),
  };
}

/** The validators of an operation if they are already loaded: the synchronous fast path. */
export function loadedValidators(api: ApiName, operationId: string): OperationValidators | undefined {
  return loaded.get(`${api} ${operationId}`);
}

/** Loads the validators of an operation of `api` from its loader map (once; concurrent first calls share one import). Undefined for an unknown operation. */
export function loadValidators(api: ApiName, loaders: ValidatorLoaders, operationId: string): Promise<OperationValidators | undefined> {
  const key = `${api} ${operationId}`;
  const done = loaded.get(key);
  if (done) return Promise.resolve(done);
  let promise = pending.get(key);
  if (!promise) {
    const loader = Object.hasOwn(loaders, operationId) ? loaders[operationId] : undefined;
    promise = loader
      ? loader().then(
          (mod) => {
            const validators = bind(api, operationId, mod);
            loaded.set(key, validators);
            pending.delete(key);
            return validators;
          },
          (error: unknown) => {
            // A failed import (e.g. a missing chunk) is retried on the next call, not cached.
            pending.delete(key);
            throw error;
          },
        )
      : Promise.resolve(undefined);
    pending.set(key, promise);
  }
  return promise;
}
