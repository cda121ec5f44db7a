// The sandbox as MSW request handlers, over an engine that answers a fetch Request in process (the Node
// entry's whole workbench, node.ts; the browser build's storefront sandbox, browser.ts). One handler,
// `http.all('<baseUrl>/*')`, hands every request under the base URL to the engine, which is the
// workbench's own pipeline (routing, security, validation, the sandbox's live operations, the back
// office, the error writer): no answer is written here. Requests elsewhere are not matched, so MSW's
// `onUnhandledRequest` decides about them as usual.
import { http, type HttpHandler } from 'msw';

/** Where the app under test sends its requests: `npm start`'s address, so an app set up for the local sandbox needs no change. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/** An engine instance: a fetch-shaped handler and how to stop it. */
export interface SandboxEngine {
  handle(request: Request): Promise<Response>;
  /** The store's API key for `X-Api-Key` (each store has its own); null when the sandbox is off. */
  apiKey(storeId: string): string | null;
  close(): Promise<void>;
}

/** The sandbox in process, for tests: MSW handlers, or a plain `fetch`, over one engine. */
export interface InProcessSandbox {
  /** `setupServer(...sandbox.handlers)` (msw/node) or `setupWorker(...sandbox.handlers)` (msw/browser). */
  readonly handlers: HttpHandler[];
  /** The same engine without MSW: `createStorefrontClient({ baseUrl: sandbox.baseUrl, storeId, fetch: sandbox.fetch })`. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** The base URL the handlers answer under (a client's `baseUrl`). */
  readonly baseUrl: string;
  /** The store's API key, as `storefront-contract mock` prints demo-store's: `createStorefrontClient({ apiKey: sandbox.apiKey() })`. */
  apiKey(storeId?: string): string;
  /**
   * A fresh sandbox, as if just started with the same options: every store back to its seeded world,
   * issued tokens forgotten, clocks back on the wall clock (and, in Node, webhook subscriptions gone).
   * The handlers and `fetch` keep working and answer from the fresh one. Call it between tests. (With
   * `sandbox.dataDir`, what the data directory keeps comes back: leave it out in tests.)
   */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** MSW handlers and `fetch` over engines made by `start` (called again by reset()). */
export async function inProcessSandbox(baseUrl: string, start: () => Promise<SandboxEngine>): Promise<InProcessSandbox> {
  const base = normalizeBaseUrl(baseUrl);
  let engine = await start();
  let closed = false;
  const answer = (request: Request): Promise<Response> => {
    if (closed) return Promise.reject(new TypeError('the in-process sandbox is closed (close() was called)'));
    return engine.handle(request);
  };
  return {
    baseUrl: base,
    // After close(), a network error, as a stopped server's refused connection (a rejection here would be MSW's 500 with a stack).
    handlers: [http.all(under(base), ({ request }) => (closed ? Response.error() : answer(request)))],
    fetch: (input, init) => answer(new Request(input, init)),
    apiKey(storeId = 'demo-store') {
      const key = engine.apiKey(storeId);
      if (key === null) throw new TypeError('apiKey(): this in-process workbench runs without the sandbox (sandbox: false), which has no store keys; send any well-formed X-Api-Key');
      return key;
    },
    async reset() {
      if (closed) throw new TypeError('reset(): the in-process sandbox is closed (close() was called); create a new one');
      const previous = engine;
      engine = await start();
      await previous.close();
    },
    async close() {
      closed = true;
      await engine.close();
    },
  };
}

/**
 * Every URL under the base, as a RegExp without a capture group. A path pattern (`${base}/*`) would make
 * MSW decode the wildcard's capture with decodeURIComponent while it looks for a handler, so a request
 * with malformed percent-encoding (`/carts/%E0%A4%A`) got MSW's own 500 with a stack trace instead of
 * the engine's 400 envelope; with no capture there is nothing to decode, and the engine judges the path
 * (as on HTTP). A RegExp works on every MSW 2.x (custom predicates came in 2.11).
 */
export function under(base: string): RegExp {
  return new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`);
}

/** `http://127.0.0.1:4010` or `https://shop.test/backend`: an absolute http(s) URL, without a trailing slash, query or fragment. */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl "${baseUrl}" is not an absolute URL: give the origin your app's client uses, e.g. ${DEFAULT_BASE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`baseUrl "${baseUrl}" is not http(s): give the origin your app's client uses, e.g. ${DEFAULT_BASE_URL}`);
  if (url.search || url.hash) throw new TypeError(`baseUrl "${baseUrl}" has a query or fragment: give the origin (and path prefix, if any) only`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The path a base URL adds before `/api/...` (`/backend` of `https://shop.test/backend`), or ''. */
export function pathPrefix(base: string): string {
  return new URL(base).pathname.replace(/\/+$/, '');
}
