// createAdminClient: openapi-fetch typed by the Admin webhook API, addressed at
// {base_url}/api/v1/{store_id}/admin, with the admin bearer token on every operation.
import { apiBaseUrl } from '../contract/paths.js';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../generated/types/admin.js';
import { adminSecurity } from '../../generated/operations/security.js';
import { authMiddleware, type ValidationMode } from './middleware.js';

export interface AdminClientOptions {
  baseUrl: string;
  storeId: string;
  /** Admin credential of the store (an admin user's token or an admin API key), sent as a bearer token. */
  adminToken?: string | undefined;
  validate?: ValidationMode | undefined;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
}

export type AdminClient = Client<paths, `${string}/${string}`> & {
  readonly baseUrl: string;
};

export function adminBaseUrl(baseUrl: string, storeId: string): string {
  return apiBaseUrl(baseUrl, 'admin', storeId);
}

export function createAdminClient(options: AdminClientOptions): AdminClient {
  const baseUrl = adminBaseUrl(options.baseUrl, options.storeId);
  const client = createClient<paths>({ baseUrl, fetch: options.fetch, headers: options.headers });
  client.use(
    authMiddleware(adminSecurity, (scheme) => (scheme === 'adminBearer' && options.adminToken ? ['Authorization', `Bearer ${options.adminToken}`] : undefined), 'pass adminToken'),
  );
  const mode = options.validate;
  if (mode && mode !== 'off') client.use({ onResponse: async (context) => (await import('./admin-validation.js')).checkAdminResponse(context, mode) });
  return Object.assign(client, { baseUrl });
}
