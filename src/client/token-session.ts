// tokenSession: the sign-in-again-on-401 middleware (session.ts) for any openapi-fetch client of the
// Storefront API: `client.use(tokenSession({ signIn }))`. createStorefrontClient takes the same as its
// `signIn` option and loads session.ts itself.
import { storefrontSecurity } from '../../generated/operations/security.js';
import { createSession, type TokenSession, type TokenSessionOptions, type TokenStore } from './session.js';

export type { TokenSession, TokenSessionOptions, TokenStore };

/** Keeps the storefront access token of a client: gets one when a bearer call needs it, and again (once) on a 401. */
export function tokenSession(options: TokenSessionOptions): TokenSession {
  return createSession(storefrontSecurity, 'bearerAuth', options);
}
