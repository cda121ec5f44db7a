// Shared by the sandbox tests: the real workbench (createWorkbench, sandbox and simulator) on a free
// loopback port, storefront calls over HTTP whose answers are judged against the contract with the
// generated validators (validateResponse), and tokens issued the way an app gets them. Through another
// adapter with SFC_TEST_ADAPTER (../helpers/adapter.ts: `npm run test:adapters`).
import { makeTempDir } from '../helpers/cleanup.js';
import { send, startWorkbench } from '../helpers/adapter.js';
import type { Reply } from '../helpers/http-reply.js';
import { expect } from 'vitest';
import { validateResponse } from '../../src/validators/index.js';
import { sandboxApiKey, type Workbench, type WorkbenchOptions } from '../../workbench/index.js';

export const STORE = 'demo-store';
/** X-Api-Key with the store's own sandbox key (seed 1), as an app sends it. */
export const keyOf = (store = STORE, seed?: string | number) => ({ 'x-api-key': sandboxApiKey(store, { seed }) });
export const KEY = keyOf(STORE);

export type { Reply };

export async function startSandbox(options: WorkbenchOptions = {}): Promise<Workbench> {
  return startWorkbench({ port: 0, host: '127.0.0.1', quiet: true, webhooks: { timeScale: 0.01 }, ...options });
}

export async function http(url: string, method = 'GET', init: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Reply> {
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const headers = body !== undefined && typeof init.body !== 'string' ? { 'content-type': 'application/json', ...init.headers } : init.headers;
  return send(url, { method, headers, body });
}

export const storefront = (wb: Workbench, store = STORE) => `${wb.url}/api/v1/${encodeURIComponent(store)}/storefront`;
export const backOffice = (wb: Workbench, store = STORE) => `${wb.url}/__simulator/stores/${encodeURIComponent(store)}`;

/** A token the sandbox issued, as an app gets one: POST /auth/anonymous with the store API key. */
export async function anonymous(wb: Workbench, store = STORE): Promise<{ token: string; userId: string; auth: Record<string, string> }> {
  const r = await http(`${storefront(wb, store)}/auth/anonymous`, 'POST', { headers: keyOf(store, wb.sandbox?.sandbox.seed) });
  expect(r.status).toBe(200);
  return { token: r.json.content.access_token, userId: r.json.content.user.id, auth: { authorization: `Bearer ${r.json.content.access_token}` } };
}

/** A storefront call whose answer must match the contract for its operation and status. */
export async function call(wb: Workbench, operationId: string, method: string, pathAndQuery: string, init: { headers?: Record<string, string>; body?: unknown; store?: string } = {}): Promise<Reply> {
  const r = await http(`${storefront(wb, init.store)}${pathAndQuery}`, method, init);
  const verdict = validateResponse('storefront', operationId, r.status, r.json);
  expect(verdict, `${operationId} ${method} ${pathAndQuery} -> ${r.status}: ${r.text.slice(0, 300)}`).toEqual({ valid: true });
  return r;
}

export const tempDir = (prefix = 'sandbox-') => makeTempDir(prefix);

export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const q = (params: Record<string, string | number | boolean | Array<string | number>>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const item of Array.isArray(v) ? v : [v]) s.append(k, String(item));
  return `?${s}`;
};
