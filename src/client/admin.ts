// createAdminClient: openapi-fetch typed by the Admin webhook API (typed-client.ts: failures as ErrorEnvelope,
// event names from the catalog), addressed at {base_url}/api/v1/{store_id}/admin, with the admin bearer
// token on every operation.
import { apiBaseUrl } from '../contract/paths.js';
import createClient, { type ClientOptions } from 'openapi-fetch';
import { adminSecurity } from '../../generated/operations/security.js';
import { globalFetch } from './global-fetch.js';
import { authMiddleware, lazyValidation, type ValidationMode } from './middleware.js';
import type { AdminClientPaths, TypedClient } from './typed-client.js';

export interface AdminClientOptions {
  baseUrl: string;
  storeId: string;
  /** Admin credential of the store (an admin user's token or an admin API key), sent as a bearer token. */
  adminToken?: string | undefined;
  validate?: ValidationMode | undefined;
  /** Sends each request. Default: `globalThis.fetch` as it is at that moment (so a fetch MSW installs after the client is made still gets the requests). */
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
}

export type AdminClient = TypedClient<AdminClientPaths> & {
  readonly baseUrl: string;
};

export function adminBaseUrl(baseUrl: string, storeId: string): string {
  return apiBaseUrl(baseUrl, 'admin', storeId);
}

export function createAdminClient(options: AdminClientOptions): AdminClient {
  const baseUrl = adminBaseUrl(options.baseUrl, options.storeId);
  // `as ClientOptions`: openapi-fetch's options take no explicit undefined (exactOptionalPropertyTypes); its defaults apply to it.
  const client = createClient<AdminClientPaths>({ baseUrl, fetch: options.fetch ?? globalFetch, headers: options.headers } as ClientOptions);
  client.use(
    authMiddleware(adminSecurity, (scheme) => (scheme === 'adminBearer' && options.adminToken ? ['Authorization', `Bearer ${options.adminToken}`] : undefined), 'pass adminToken'),
  );
  const mode = options.validate;
  if (mode && mode !== 'off') client.use(lazyValidation(() => import('./admin-validation.js').then((m) => m.checkAdminResponse), mode));
  // openapi-fetch's client, typed by TypedClient: the same methods, `error` read as the envelope.
  return Object.assign(client, { baseUrl }) as unknown as AdminClient;
}
