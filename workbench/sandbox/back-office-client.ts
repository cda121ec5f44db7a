// A typed client of the sandbox's back office (outside the contract), for tests and scripts that set up
// state: one method per call of back-office-api.ts, named as there, built from the same table and typed
// with the same body and answer types as the routes, so client and routes cannot drift. A call resolves to
// the answer's `content` (raw JSON for getWorldResource) and throws a BackOfficeError, with the status and
// the envelope's code and details, on any other answer than 2XX.
//
//   const office = createBackOfficeClient({ baseUrl: workbench.url, storeId: 'demo-store' });
//   const { cart } = await office.createCart({ customer_id: 'cst_9XK2PL', cart_items: [{ product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C', quantity: 1 }] });
//   await office.updateCartItem({ cart_id: cart.id, variant_id: 'var_4M8T2C' }, { quantity: 3 });
import type { ErrorEnvelopeLike, ErrorItem } from 'storefront-contract/contract';
import { BACK_OFFICE_CALLS, BACK_OFFICE_PREFIX, type BackOfficeCallName, type BackOfficeCalls } from './back-office-api.js';

export interface BackOfficeClientOptions {
  /** The workbench's address, e.g. `http://127.0.0.1:4010` (`workbench.url` in process). */
  baseUrl: string;
  /** The store whose world the calls read and write. Default `demo-store`. */
  storeId?: string;
  /** Default: the global fetch (Node 20+). */
  fetch?: typeof fetch;
}

/** A back-office answer other than 2XX: its status, and the code and details of the contract's envelope. */
export class BackOfficeError extends Error {
  readonly name = 'BackOfficeError';
  constructor(
    readonly call: BackOfficeCallName,
    readonly status: number,
    readonly code: string | undefined,
    readonly details: ErrorItem[],
    message: string,
  ) {
    super(`${call}: ${status}${code ? ` ${code}` : ''}: ${message}`);
  }
}

/** `{cart_id}` and `{variant_id}` of `/carts/{cart_id}/items/{variant_id}`. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
type Call = typeof BACK_OFFICE_CALLS;
/** The path parameters of a call, but the store (the client's). */
export type BackOfficeParams<K extends BackOfficeCallName> = { [N in Exclude<ParamNames<Call[K]['path']>, 'store_id'>]: string };
type Body<K extends BackOfficeCallName> = BackOfficeCalls[K]['body'];
type Content<K extends BackOfficeCallName> = BackOfficeCalls[K]['content'];
type Method<K extends BackOfficeCallName> = [keyof BackOfficeParams<K>] extends [never]
  ? Body<K> extends undefined
    ? () => Promise<Content<K>>
    : (body: Body<K>) => Promise<Content<K>>
  : Body<K> extends undefined
    ? (params: BackOfficeParams<K>) => Promise<Content<K>>
    : (params: BackOfficeParams<K>, body: Body<K>) => Promise<Content<K>>;

export type BackOfficeClient = { readonly [K in BackOfficeCallName]: Method<K> } & {
  readonly storeId: string;
  /** The same client for another store. */
  forStore(storeId: string): BackOfficeClient;
};

export function createBackOfficeClient(options: BackOfficeClientOptions): BackOfficeClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const storeId = options.storeId ?? 'demo-store';
  const send = options.fetch ?? fetch;

  async function invoke(name: BackOfficeCallName, params: Record<string, string>, body: unknown): Promise<unknown> {
    const call: { method: string; path: string; body: boolean; raw?: true } = BACK_OFFICE_CALLS[name];
    const path = `${BACK_OFFICE_PREFIX}${call.path}`.replace(/\{([a-z_]+)\}/g, (_, param: string) => {
      const value = param === 'store_id' ? storeId : params[param];
      if (typeof value !== 'string' || value === '') throw new TypeError(`${name}: the path parameter ${param} is required`);
      return encodeURIComponent(value);
    });
    const res = await send(`${base}${path}`, {
      method: call.method,
      ...(call.body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) } : {}),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const envelope = (json ?? {}) as ErrorEnvelopeLike;
      const details = (envelope.content?.error?.details ?? []) as ErrorItem[];
      throw new BackOfficeError(name, res.status, envelope.content?.error?.code, details, envelope.message ?? (text.slice(0, 200) || res.statusText));
    }
    return call.raw ? json : (json as { content?: unknown } | undefined)?.content;
  }

  const client: Record<string, unknown> = { storeId, forStore: (other: string) => createBackOfficeClient({ ...options, storeId: other }) };
  for (const name of Object.keys(BACK_OFFICE_CALLS) as BackOfficeCallName[]) {
    const call: { path: string; body: boolean } = BACK_OFFICE_CALLS[name];
    const takesParams = /\{(?!store_id\})[a-z_]+\}/.test(call.path);
    client[name] = (...args: unknown[]) => {
      const params = (takesParams ? args[0] : {}) as Record<string, string>;
      const body = call.body ? args[takesParams ? 1 : 0] : undefined;
      return invoke(name, params ?? {}, body);
    };
  }
  return client as BackOfficeClient;
}
