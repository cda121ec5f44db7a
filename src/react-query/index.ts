// storefront-contract/react-query: TanStack Query hooks on the typed clients, through openapi-react-query
// (the openapi-fetch team's package: `useQuery`, `useSuspenseQuery`, `useInfiniteQuery`, `useMutation`,
// `queryOptions`, typed from the same paths as the client). openapi-react-query and @tanstack/react-query
// are optional peer dependencies of this library, loaded by this entry only: the root entry never
// imports them. Two things on top of openapi-react-query, both in the call layer it is given:
//   - every failure is thrown as an Error: a StorefrontApiError for the API's answers (`status`, the typed
//     envelope as `body`, `code`, `details`), so `error instanceof StorefrontApiError` narrows to the
//     typed code; a non-2XX answer with an empty body is a failure too (openapi-react-query alone throws
//     the parsed body, a plain object, and lets an empty one through as data);
//   - query keys carry the client's base URL, which holds the store id, so the clients of two stores
//     share one QueryClient without mixing their caches.
// Why not hooks written here: docs/guides/browser-apps.md ("Query hooks").
import type { Client } from 'openapi-fetch';
import createOpenapiQueryClient, { type OpenapiQueryClient } from 'openapi-react-query';
import { adminRoutes, storefrontRoutes } from '../../generated/operations/routes.js';
import { StorefrontApiError } from '../client/errors.js';
import type { ClientPaths, TypedClient } from '../client/typed-client.js';

/** An API's paths as the hooks see them: a failure is thrown, so its type is `Error`. */
export type QueryPaths<Paths> = ClientPaths<Paths, {}, Error>;

/** openapi-react-query's hooks over a typed client's API; `error` is an `Error` (a StorefrontApiError for the API's failures). */
export type QueryHooks<Paths> = OpenapiQueryClient<QueryPaths<Paths>, `${string}/${string}`>;

/** A typed client of this library: createStorefrontClient's or createAdminClient's. */
export type QueryableClient<Paths extends Record<string, any>> = TypedClient<Paths> & { readonly baseUrl: string };

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;
const ROUTES: Readonly<Record<string, string>> = { ...storefrontRoutes, ...adminRoutes };

interface Result {
  data?: unknown;
  error?: unknown;
  response: Response;
}
type Call = (path: string, init?: object) => Promise<Result>;

/**
 * TanStack Query hooks for a typed client: `const api = createQueryHooks(client)`, then
 * `api.useQuery('get', '/catalog/products', { params: { query: { limit: 20 } } })` in a component.
 */
export function createQueryHooks<Paths extends Record<string, any>>(client: QueryableClient<Paths>): QueryHooks<Paths> {
  const { baseUrl } = client;
  const calls: Record<string, Call> = {};
  for (const method of METHODS) {
    const send = client[method] as unknown as Call;
    calls[method] = async (path, init) => {
      const result = await send(path, init);
      const { response } = result;
      if (response.ok) return result;
      // Every key holds a space, so no prototype property matches.
      const route = `${method} ${path}`;
      return { error: new StorefrontApiError(response.status, ROUTES[route] ?? route, result.error), response };
    };
  }
  const hooks = createOpenapiQueryClient(calls as unknown as Client<QueryPaths<Paths>, `${string}/${string}`>);
  // The base URL rides in `init`, where openapi-react-query puts it into the key and openapi-fetch reads
  // it (the client's own, so the request does not change).
  type Loose = (method: unknown, path: unknown, init?: unknown, ...rest: unknown[]) => unknown;
  const scoped =
    (hook: Loose): Loose =>
    (method, path, init, ...rest) =>
      hook(method, path, { ...(init as object | undefined), baseUrl }, ...rest);
  return {
    ...hooks,
    queryOptions: scoped(hooks.queryOptions as Loose),
    useQuery: scoped(hooks.useQuery as Loose),
    useSuspenseQuery: scoped(hooks.useSuspenseQuery as Loose),
    useInfiniteQuery: scoped(hooks.useInfiniteQuery as Loose),
  } as QueryHooks<Paths>;
}
