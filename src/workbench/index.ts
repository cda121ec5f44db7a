// storefront-contract/workbench: the workbench's own API (spec/workbench/openapi.yaml), designed here and
// outside the platform's contract: the sandbox's back office, store clocks, fault rules, the webhook
// simulator's trigger and the console's reads, all under `{base_url}/__simulator`. What an app's tests and
// scripts use to set up the sandbox's state, typed like the contract's clients (openapi-fetch over the
// generated `paths`), and what the workbench's server validates its requests with (the operation model).
// Browser-safe: fetch, the generated types and the operation table, nothing of Node.
//
//   const workbench = createWorkbenchClient({ baseUrl: 'http://127.0.0.1:4010' });
//   const { data, error } = await workbench.POST('/stores/{store_id}/inventory', {
//     params: { path: { store_id: 'demo-store' } },
//     body: { product_id: 'prd_7Q2K9X', stock_quantity: 0 },
//   });
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths as WorkbenchGeneratedPaths } from '../../generated/types/workbench.js';
import { workbenchOperationsBasePath } from '../../generated/operations/workbench.js';
import { globalFetch } from '../client/global-fetch.js';
import type { ClientPaths, TypedClient } from '../client/typed-client.js';

export type { paths as WorkbenchPaths, components as WorkbenchComponents, operations as WorkbenchOperations } from '../../generated/types/workbench.js';
export { workbenchOperations, workbenchOperationsBasePath, type WorkbenchOperationsOperationId as WorkbenchOperationId } from '../../generated/operations/workbench.js';

/** The workbench API as `createWorkbenchClient` types it: failures read as the contract's envelope. */
export type WorkbenchClientPaths = ClientPaths<WorkbenchGeneratedPaths>;

export interface WorkbenchClientOptions {
  /** The workbench's address, e.g. `http://127.0.0.1:4010` (a running `storefront-contract mock`, or the MSW adapter's base URL). */
  baseUrl: string;
  /** Sends each request. Default: `globalThis.fetch` as it is at that moment (so MSW installed later still gets the requests). */
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
}

export type WorkbenchClient = TypedClient<WorkbenchClientPaths> & { readonly baseUrl: string };

/** `{baseUrl}/__simulator`: where the workbench API's paths live. */
export function workbenchBaseUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${workbenchOperationsBasePath}`;
}

export function createWorkbenchClient(options: WorkbenchClientOptions): WorkbenchClient {
  const baseUrl = workbenchBaseUrl(options.baseUrl);
  // `as ClientOptions`: openapi-fetch's options take no explicit undefined (exactOptionalPropertyTypes).
  const client = createClient<WorkbenchClientPaths>({ baseUrl, fetch: options.fetch ?? globalFetch, headers: options.headers } as ClientOptions);
  return Object.assign(client, { baseUrl }) as unknown as WorkbenchClient;
}
