// createAdminClient: openapi-fetch typed by the Admin webhook API, addressed at
// {base_url}/api/v1/{store_id}/admin, with the admin bearer token on every operation.
import { apiBaseUrl } from '../contract/paths.js';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../generated/types/admin.js';
import { adminRoutes } from '../../generated/operations/routes.js';
import { authMiddleware, validationMiddleware, type ValidationMode } from './middleware.js';
import { routeFinder } from './operation-index.js';

export interface AdminClientOptions {
  baseUrl: string;
  storeId: string;
  /** Admin credential of the store (an admin user's token or an admin API key), sent as a bearer token. */
  adminToken?: string;
  validate?: ValidationMode;
  fetch?: typeof globalThis.fetch;
  headers?: Record<string, string>;
}

export type AdminClient = Client<paths, `${string}/${string}`> & {
  readonly baseUrl: string;
};

// Marked pure so that a bundle importing only the other client drops this one.
const findOperation = /* @__PURE__ */ routeFinder(adminRoutes);

export function adminBaseUrl(baseUrl: string, storeId: string): string {
  return apiBaseUrl(baseUrl, 'admin', storeId);
}

export function createAdminClient(options: AdminClientOptions): AdminClient {
  const baseUrl = adminBaseUrl(options.baseUrl, options.storeId);
  const client = createClient<paths>({ baseUrl, fetch: options.fetch, headers: options.headers });
  client.use(
    authMiddleware(findOperation, {
      headersFor(scheme): Record<string, string> | undefined {
        if (scheme === 'adminBearer' && options.adminToken) return { Authorization: `Bearer ${options.adminToken}` };
        return undefined;
      },
    }),
  );
  if (options.validate && options.validate !== 'off') client.use(validationMiddleware('admin', findOperation, options.validate));
  return Object.assign(client, { baseUrl });
}
