// What the page calls, all on its own origin (the workbench that served it), each through a client
// generated from its document: the console's reads and the simulator's trigger through the workbench API's
// client (createWorkbenchClient, spec/workbench/openapi.yaml), the back office through its typed client
// (createBackOfficeClient, the same table as the routes), the Admin webhook API through the library's
// createAdminClient, and the storefront API's calls that the console offers to run through the library's
// createStorefrontClient, as a developer's app makes them. No request here is written by hand.
import { createAdminClient, createStorefrontClient, type AdminClient, type StorefrontClient } from 'storefront-contract';
import { basePathTemplate } from 'storefront-contract/contract';
import { createWorkbenchClient } from 'storefront-contract/workbench';
import { createBackOfficeClient, type BackOfficeClient } from '../../sandbox/back-office-client.js';

export const origin = location.origin;

/** An answer other than 2XX: the contract's envelope (message, code, details) when the body is one. */
export class CallError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly details: Array<{ location?: string; name: string; message: string }>,
  ) {
    super(message);
  }
}

export interface Answer<T = any> {
  status: number;
  body: T;
}

/** The workbench API (the console's reads, the simulator's trigger), typed by its generated `paths`. */
export const workbenchApi = createWorkbenchClient({ baseUrl: origin });

/** What an openapi-fetch client resolves to: the body of a 2XX answer, else the envelope, as a CallError. */
export async function answered<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) {
    const envelope = error as { message?: unknown; content?: { error?: { code?: string; details?: unknown } } } | undefined;
    const failure = envelope?.content?.error;
    throw new CallError(response.status, typeof envelope?.message === 'string' ? envelope.message : `${response.status} ${response.statusText}`, failure?.code, Array.isArray(failure?.details) ? failure.details : []);
  }
  return data as T;
}

const offices = new Map<string, BackOfficeClient>();
/** The back office of a store, typed from its table of calls. */
export function office(storeId: string): BackOfficeClient {
  let client = offices.get(storeId);
  if (!client) {
    client = createBackOfficeClient({ baseUrl: origin, storeId });
    offices.set(storeId, client);
  }
  return client;
}

export const storefrontBase = (storeId: string) => basePathTemplate.storefront.replace('{store_id}', encodeURIComponent(storeId));

const admins = new Map<string, AdminClient>();
/** The Admin webhook API of a store (the library's client) with the bearer token the page was given (any token, unless the workbench restricts them). */
export function adminApi(storeId: string, token: string): AdminClient {
  const key = `${storeId}\n${token}`;
  let client = admins.get(key);
  if (!client) {
    client = createAdminClient({ baseUrl: origin, storeId, adminToken: token });
    admins.clear();
    admins.set(key, client);
  }
  return client;
}

const storefronts = new Map<string, Promise<StorefrontClient>>();
/**
 * The storefront API of a store as an app calls it (the library's createStorefrontClient): signed in
 * anonymously with the store's API key (from the back office) when a call first needs a token, and again
 * on a 401. One client a store.
 */
export function storefrontApi(storeId: string): Promise<StorefrontClient> {
  let client = storefronts.get(storeId);
  if (!client) {
    client = (async () => {
      const keys = await office(storeId).getKeys();
      if (!keys.api_key) throw new Error('This workbench runs with a fixed API key (--api-key): the console cannot know it.');
      const api: StorefrontClient = createStorefrontClient({ baseUrl: origin, storeId, apiKey: keys.api_key, signIn: () => api.signInAnonymously().then((s) => s.access_token) });
      return api;
    })();
    client.catch(() => storefronts.delete(storeId));
    storefronts.set(storeId, client);
  }
  return client;
}

/** Forgets the store's client and its token (after a reset, the identities it knew are gone). */
export function forgetToken(storeId: string): void {
  storefronts.delete(storeId);
}

export interface StorefrontCall {
  operationId: string;
  method: 'GET';
  path: string;
  params: { path?: Record<string, string>; query?: Record<string, string> };
}

/** The call's concrete path inside the storefront API, with its query string. */
export function concretePath(c: StorefrontCall): string {
  let p = c.path;
  for (const [name, value] of Object.entries(c.params.path ?? {})) p = p.replace(`{${name}}`, encodeURIComponent(value));
  const q = new URLSearchParams(c.params.query ?? {}).toString();
  return q ? `${p}?${q}` : p;
}

/** As curl, the token and key left as shell variables (never printed by the page). */
export function curlLine(storeId: string, c: StorefrontCall): string {
  return `curl -s "${origin}${storefrontBase(storeId)}${concretePath(c)}" -H "Authorization: Bearer $TOKEN"`;
}

/** As a line of the library's typed client (createStorefrontClient from 'storefront-contract'). */
export function clientLine(c: StorefrontCall): string {
  const params = Object.entries(c.params)
    .filter(([, v]) => v && Object.keys(v).length)
    .map(([where, v]) => `${where}: ${JSON.stringify(v).replace(/"([a-z_]+)":/g, '$1: ')}`)
    .join(', ');
  return `await client.GET('${c.path}'${params ? `, { params: { ${params} } }` : ''})`;
}

/** Runs the call as an app would, through the library's client with a token of the store: the answer's status and body. */
export async function runStorefront(storeId: string, c: StorefrontCall): Promise<Answer> {
  const api = await storefrontApi(storeId);
  // The call is data (a path template and its parameters, from the browse route), so the client is addressed untyped.
  const { data, error, response } = await (api.GET as (path: string, init: unknown) => Promise<{ data?: unknown; error?: { message?: string; content?: { error?: { code?: string; details?: unknown } } }; response: Response }>)(c.path, { params: c.params });
  if (response.ok) return { status: response.status, body: data };
  return { status: response.status, body: { message: error?.message, code: error?.content?.error?.code, details: error?.content?.error?.details ?? [] } };
}
