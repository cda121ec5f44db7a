// openapi-fetch middleware shared by both clients: credentials per the operation's security
// requirement, and the opt-in validation, whose code each client imports on its first response
// (validation.ts); and how the clients load their error classes when they throw one.
import type { Middleware } from 'openapi-fetch';
import type { SecurityTable } from '../../generated/operations/security.js';

export type ValidationMode = 'off' | 'warn' | 'strict';

/**
 * The error classes (errors.ts), loaded by a client when it throws one: in a bundled app a chunk of their
 * own that an app which never fails that way never downloads, and that an app which imports a class
 * (`error instanceof StorefrontApiError`) has in its own code already (the same module either way).
 */
export const errors = () => import('./errors.js');

type Header = readonly [name: string, value: string] | undefined;

/** The header carrying a security scheme's credential, `[name, value]`; undefined when the client holds none (a session may get one first). */
export type Credentials = (scheme: string) => Header | Promise<Header>;

/** `hint` ends the message of the MissingCredentialsError thrown when no credential of a route's schemes is held. */
export function authMiddleware(security: SecurityTable, credentials: Credentials, hint: string): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      // Every key holds a space, so no prototype property matches.
      const route = `${request.method.toUpperCase()} ${schemaPath}`;
      const schemes = security.routes[route] ?? security.default;
      // Security requirements are alternatives; the first one we hold a credential for wins.
      for (const scheme of schemes) {
        const header = await credentials(scheme);
        if (header) {
          request.headers.set(header[0], header[1]);
          return request;
        }
      }
      if (!schemes.length) return undefined;
      const { MissingCredentialsError } = await errors();
      throw new MissingCredentialsError(`${route} needs ${schemes.join(' or ')}; ${hint}`);
    },
  };
}

export type ResponseContext = Parameters<NonNullable<Middleware['onResponse']>>[0];

/** What the validation middleware of a client runs on each response: undefined or the response openapi-fetch reads on. */
export type CheckResponse = (context: ResponseContext, mode: Exclude<ValidationMode, 'off'>) => Promise<Response | undefined>;

/**
 * Validation as a middleware whose code loads on the first response (its own chunk in a bundled app) and
 * is reused after: an `import()` on every response went through module resolution each time (with a
 * loader hook, a round trip to the hooks thread), about 1 ms of a 665 KB page's 5.5. A failed import is
 * tried again on the next response.
 */
export function lazyValidation(load: () => Promise<CheckResponse>, mode: Exclude<ValidationMode, 'off'>): Middleware {
  let loading: Promise<CheckResponse> | undefined;
  const retry = (error: unknown): never => {
    loading = undefined;
    throw error;
  };
  return { onResponse: async (context) => (await (loading ??= load().catch(retry)))(context, mode) };
}
