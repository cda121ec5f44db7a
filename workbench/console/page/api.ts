// What the page calls, all on its own origin (the workbench that served it): the console's reads under
// /__simulator/console, the back office through its typed client (createBackOfficeClient, the same table
// as the routes), the Admin webhook API and the storefront API as a developer's app calls them.
import { basePathTemplate } from 'storefront-contract/contract';
import { createBackOfficeClient, type BackOfficeClient } from '../../sandbox/back-office-client.js';

export const origin = location.origin;
export const CONSOLE_API = '/__simulator/console';

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

export const consoleGet = <T = any>(path: string) => call<T>('GET', `${CONSOLE_API}${path}`).then((a) => a.body as T);

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
export const adminBase = (storeId: string) => basePathTemplate.admin.replace('{store_id}', encodeURIComponent(storeId));

/** The Admin webhook API with the bearer token the page was given (any token, unless the workbench restricts them). */
export function admin<T = any>(storeId: string, token: string, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  return call<T>(method, `${adminBase(storeId)}${path}`, { body, headers: { authorization: `Bearer ${token}` } });
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
