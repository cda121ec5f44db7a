// createStorefrontClient: openapi-fetch typed by the generated `paths`, addressed like the real
// service ({base_url}/api/v1/{store_id}/storefront), putting X-Api-Key on the operations whose
// security is the store API key and the bearer token on the others.
import { apiBaseUrl } from '../contract/paths.js';
import createClient, { type Client } from 'openapi-fetch';
import type { paths, components } from '../../generated/types/storefront.js';
import { storefrontSecurity } from '../../generated/operations/security.js';
import { StorefrontApiError } from './errors.js';
import { authMiddleware, type ValidationMode } from './middleware.js';

export interface StorefrontClientOptions {
  /** The service's base address, e.g. `http://127.0.0.1:4010` for the mock workbench. */
  baseUrl: string;
  storeId: string;
  /** Store API key, sent as `X-Api-Key` on createAnonymousUser and startPosPhoneLogin. */
  apiKey?: string | undefined;
  /** Bearer token for every other operation; `signInAnonymously()` can obtain one. */
  accessToken?: string | undefined;
  /** Check every response against the contract: off (default), warn, or strict (throws). */
  validate?: ValidationMode | undefined;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
}

export type AnonymousSession = components['schemas']['CreateAnonymousUserResponse']['content'];

export type StorefrontClient = Client<paths, `${string}/${string}`> & {
  readonly baseUrl: string;
  setAccessToken(token: string | undefined): void;
  /** POST /auth/anonymous with the API key; keeps the access token for later calls. */
  signInAnonymously(): Promise<AnonymousSession>;
};

export function storefrontBaseUrl(baseUrl: string, storeId: string): string {
  return apiBaseUrl(baseUrl, 'storefront', storeId);
}

export function createStorefrontClient(options: StorefrontClientOptions): StorefrontClient {
  const baseUrl = storefrontBaseUrl(options.baseUrl, options.storeId);
  let accessToken = options.accessToken;
  const client = createClient<paths>({ baseUrl, fetch: options.fetch, headers: options.headers });

  client.use(
    authMiddleware(
      storefrontSecurity,
      (scheme) =>
        scheme === 'storeApiKey' && options.apiKey ? ['X-Api-Key', options.apiKey]
        : scheme === 'bearerAuth' && accessToken ? ['Authorization', `Bearer ${accessToken}`]
        : undefined,
      'pass apiKey or accessToken, or call signInAnonymously() first',
    ),
  );
  // The validation code and the storefront validators load (as chunks of their own in a bundled app)
  // on the first response, and only for a client created with validation. A failed import is
  // attempted again on the next response.
  const mode = options.validate;
  if (mode && mode !== 'off') {
    client.use({ onResponse: async (context) => (await import('./storefront-validation.js')).checkStorefrontResponse(context, mode) });
  }

  return Object.assign(client, {
    baseUrl,
    setAccessToken(token: string | undefined) {
      accessToken = token;
    },
    async signInAnonymously() {
      const { data, error, response } = await client.POST('/auth/anonymous');
      if (!data) throw new StorefrontApiError(response.status, 'createAnonymousUser', error as never);
      accessToken = data.content.access_token;
      return data.content;
    },
  });
}
