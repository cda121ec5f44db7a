// What the page calls, all on its own origin (the workbench that served it), each through a client
// generated from its document: the console's reads and the simulator's trigger through the workbench API's
// client (createWorkbenchClient, spec/workbench/openapi.yaml), the back office through its typed client
// (createBackOfficeClient, the same table as the routes), the Admin webhook API through the library's
// createAdminClient, and the storefront API's calls that the console offers to run, as a developer's app makes them.
import { createAdminClient, type AdminClient } from 'storefront-contract';
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

/** fetch, JSON in and out; a non-2XX answer throws a CallError carrying the envelope. */
export async function call<T = any>(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer<T>> {
  const res = await fetch(path, {
    method,
    headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text
  }
  if (!res.ok) {
    const error = body?.content?.error;
    throw new CallError(res.status, typeof body?.message === 'string' ? body.message : `${res.status} ${res.statusText}`, error?.code, Array.isArray(error?.details) ? error.details : []);
  }
  return { status: res.status, body };
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

const tokens = new Map<string, Promise<string>>();
/** A storefront access token of the store: its API key (from the back office) for POST /auth/anonymous, once per store. */
export function storefrontToken(storeId: string): Promise<string> {
  let token = tokens.get(storeId);
  if (!token) {
    token = (async () => {
      const keys = await office(storeId).getKeys();
      if (!keys.api_key) throw new Error('This workbench runs with a fixed API key (--api-key): the console cannot know it.');
      const answer = await call('POST', `${storefrontBase(storeId)}/auth/anonymous`, { headers: { 'x-api-key': keys.api_key } });
      return answer.body.content.access_token as string;
    })();
    token.catch(() => tokens.delete(storeId));
    tokens.set(storeId, token);
  }
  return token;
}

/** Forgets the store's token (after a reset, the identities it knew are gone). */
export function forgetToken(storeId: string): void {
  tokens.delete(storeId);
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

/** Runs the call as an app would: with a token of the store. */
export async function runStorefront(storeId: string, c: StorefrontCall): Promise<Answer> {
  const token = await storefrontToken(storeId);
  try {
    return await call('GET', `${storefrontBase(storeId)}${concretePath(c)}`, { headers: { authorization: `Bearer ${token}` } });
  } catch (e) {
    if (e instanceof CallError) return { status: e.status, body: { message: e.message, code: e.code, details: e.details } };
    throw e;
  }
}
