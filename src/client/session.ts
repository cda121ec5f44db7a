// Sign in again on 401, once: an openapi-fetch middleware that keeps the storefront access token. On a
// bearer operation it puts the token on the request (signing in first when it holds none); when such a
// request answers 401 it signs in again and sends the request once more with the new token. Concurrent
// 401s share one sign-in (single flight); a 401 to a request sent with a token older than the current one
// is retried with the current one, without signing in; the retry is sent once, past the other middlewares'
// requests and never through this one again, so a token that is refused at once still ends in one 401,
// never a loop. Operations of the API key (POST /auth/anonymous, which `signIn` usually calls) are never
// touched: a refused key is the caller's 401.
//
// Reached only through tokenSession (token-session.ts), which loads this module on the first call:
// `createStorefrontClient({ signIn })` builds one for its client, `client.use(tokenSession(...))` puts one
// on any openapi-fetch client of the Storefront API. The rule is the contract's: a 401 means "get a new
// token" (token lifetimes are not stated by the platform), so nothing here assumes an expiry.
import type { Middleware } from 'openapi-fetch';
import type { SecurityTable } from '../../generated/operations/security.js';

export interface TokenStore {
  get(): string | undefined;
  set(token: string): void;
}

export interface TokenSessionOptions {
  /**
   * Gets a new access token: `POST /auth/anonymous` with the store API key (the client's
   * `signInAnonymously()`), or your server's token endpoint. Called once for any number of requests
   * that need a token at the same time; a rejection rejects those requests.
   */
  signIn: () => Promise<string>;
  /**
   * Where the token is kept: read before each bearer call (none: sign in first), written after each
   * sign-in. Default: in memory. `{ get: () => sessionStorage.getItem('token') ?? undefined, set: (t) =>
   * sessionStorage.setItem('token', t) }` keeps it across page loads of the tab.
   */
  store?: TokenStore | undefined;
}

/** An openapi-fetch middleware (`client.use(session)`), and the token it keeps. */
export interface TokenSession {
  onRequest: NonNullable<Middleware['onRequest']>;
  onResponse: NonNullable<Middleware['onResponse']>;
  /** The token kept, or a new one from `signIn` (single flight) when there is none. */
  token(): Promise<string>;
}

const bearerOf = (request: Request) => request.headers.get('authorization')?.replace(/^Bearer /, '');

function memory(): TokenStore {
  let token: string | undefined;
  return { get: () => token, set: (t) => (token = t) };
}

/** A session over the routes whose security is `scheme` in `security` (the storefront's `bearerAuth`: token-session.ts). */
export function createSession(security: SecurityTable, scheme: string, options: TokenSessionOptions): TokenSession {
  const store = options.store ?? memory();
  let signingIn: Promise<string> | undefined;
  // The request as it was before sending, to send again: keyed by the request object openapi-fetch hands
  // to onResponse, so nothing is kept once a request is done with.
  const sent = new WeakMap<Request, Request>();

  const signIn = () =>
    (signingIn ??= options.signIn().then(
      (token) => {
        signingIn = undefined;
        store.set(token);
        return token;
      },
      (error: unknown) => {
        signingIn = undefined;
        throw error;
      },
    ));

  const session: TokenSession = {
    token: () => {
      const kept = store.get();
      return kept ? Promise.resolve(kept) : signIn();
    },

    async onRequest({ request, schemaPath }) {
      if (!(security.routes[`${request.method.toUpperCase()} ${schemaPath}`] ?? security.default).includes(scheme)) return undefined;
      request.headers.set('Authorization', `Bearer ${await session.token()}`);
      sent.set(request, request.clone());
      return request;
    },

    async onResponse({ request, response, options: { fetch } }) {
      const original = sent.get(request);
      sent.delete(request);
      if (response.status !== 401 || !original) return undefined;
      // The refused answer's body is not read: cancelling it releases its connection over HTTP. Not awaited,
      // and its failure ignored: under msw/node a mocked Response's cancel() never settles.
      response.body?.cancel().catch(() => undefined);
      // Renewed since this request left: use that token; otherwise sign in (shared by concurrent 401s).
      const kept = store.get();
      const token = kept && kept !== bearerOf(request) ? kept : await signIn();
      const headers = new Headers(original.headers);
      headers.set('Authorization', `Bearer ${token}`);
      return fetch(new Request(original, { headers }));
    },
  };
  return session;
}
