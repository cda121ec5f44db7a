// createStorefrontClient: openapi-fetch typed by the generated `paths` (typed-client.ts: failures as the
// contract's ErrorEnvelope), addressed like the real service ({base_url}/api/v1/{store_id}/storefront),
// putting X-Api-Key on the operations whose security is the store API key and the bearer token on the
// others. With `signIn`, a token session (token-session.ts) gets the token when a call needs one and again,
// once, when a call answers 401.
import { apiBaseUrl } from '../contract/paths.js';
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { components } from '../../generated/types/storefront.js';
import { storefrontSecurity } from '../../generated/operations/security.js';
import { globalFetch } from './global-fetch.js';
import { authMiddleware, errors, lazyValidation, type ValidationMode } from './middleware.js';
import { tokenSession } from './token-session.js';
import type { StorefrontClientPaths, TypedClient } from './typed-client.js';

export interface StorefrontClientOptions {
  /** The service's base address, e.g. `http://127.0.0.1:4010` for the mock workbench. */
  baseUrl: string;
  storeId: string;
  /** Store API key, sent as `X-Api-Key` on createAnonymousUser and startPosPhoneLogin. */
  apiKey?: string | undefined;
  /** Bearer token for every other operation; `signInAnonymously()` can obtain one. */
  accessToken?: string | undefined;
  /**
   * Gets an access token when a bearer call needs one, and a new one (once, shared by concurrent calls)
   * when a call answers 401; the call is then sent again, once. E.g. `() =>
   * client.signInAnonymously().then((s) => s.access_token)` (POST /auth/anonymous with `apiKey`), or a
   * call to your server's token endpoint (docs/guides/browser-apps.md).
   */
  signIn?: (() => Promise<string>) | undefined;
  /** Check every response against the contract: off (default), warn, or strict (throws). */
  validate?: ValidationMode | undefined;
  /** Sends each request. Default: `globalThis.fetch` as it is at that moment (so a fetch MSW installs after the client is made still gets the requests). */
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
}

export type AnonymousSession = components['schemas']['CreateAnonymousUserResponse']['content'];

export type StorefrontClient = TypedClient<StorefrontClientPaths> & {
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
  // `as ClientOptions`: openapi-fetch's options take no explicit undefined (exactOptionalPropertyTypes); its defaults apply to it.
  const client = createClient<StorefrontClientPaths>({ baseUrl, fetch: options.fetch ?? globalFetch, headers: options.headers } as ClientOptions);
  const keep = (token: string | undefined) => {
    accessToken = token;
  };
  // Only for a client created with `signIn` (its work loads with the first call); it keeps the token here.
  const session = options.signIn && tokenSession({ signIn: options.signIn, store: { get: () => accessToken, set: keep } });

  client.use(
    authMiddleware(
      storefrontSecurity,
      async (scheme) => {
        if (scheme === 'storeApiKey') return options.apiKey ? ['X-Api-Key', options.apiKey] : undefined;
        if (scheme !== 'bearerAuth') return undefined;
        const token = session ? await session.token() : accessToken;
        return token ? ['Authorization', `Bearer ${token}`] : undefined;
      },
      'pass apiKey or accessToken, or call signInAnonymously() first',
    ),
  );
  // The validation code and the storefront validators load (as chunks of their own in a bundled app)
  // on the first response, and only for a client created with validation. A failed import is
  // attempted again on the next response.
  const mode = options.validate;
  if (mode && mode !== 'off') {
    client.use(lazyValidation(() => import('./storefront-validation.js').then((m) => m.checkStorefrontResponse), mode));
  }
  // Last, so that its onResponse runs first: a request sent again after a 401 is validated like any other.
  if (session) client.use(session);

  async function signInAnonymously(): Promise<AnonymousSession> {
    const { data, error, response } = await client.POST('/auth/anonymous');
    if (!data) {
      const { StorefrontApiError } = await errors();
      throw new StorefrontApiError(response.status, 'createAnonymousUser', error);
    }
    keep(data.content.access_token);
    return data.content;
  }

  // openapi-fetch's client, typed by TypedClient: the same methods, `error` read as the envelope.
  return Object.assign(client, { baseUrl, setAccessToken: keep, signInAnonymously }) as unknown as StorefrontClient;
}
