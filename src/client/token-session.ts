// tokenSession: the sign-in-again-on-401 middleware for any openapi-fetch client of the Storefront API,
// `client.use(tokenSession({ signIn }))`; createStorefrontClient builds one for its `signIn` option. The
// work is in session.ts, loaded by the first call (a chunk of its own in a bundled app), so an app that
// never signs in this way never loads it.
import { storefrontSecurity } from '../../generated/operations/security.js';
import type { TokenSession, TokenSessionOptions, TokenStore } from './session.js';

export type { TokenSession, TokenSessionOptions, TokenStore };

/** Keeps the storefront access token of a client: gets one when a bearer call needs it, and again (once) on a 401. */
export function tokenSession(options: TokenSessionOptions): TokenSession {
  // `m.createSession`, not a destructured `({ createSession })`: Vite 8 rewrites the latter into a larger form in every app.
  const session = import('./session.js').then((m) => m.createSession(storefrontSecurity, 'bearerAuth', options));
  return {
    onRequest: async (context) => (await session).onRequest(context),
    onResponse: async (context) => (await session).onResponse(context),
    token: async () => (await session).token(),
  };
}
