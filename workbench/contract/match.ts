// The one URL -> operation matcher of the tools: the base path split by the library (`splitApiPath`),
// then the path inside the API matched against path templates (`/pos/carts/{id}/evaluate-coupons`).
// The mock's router, the contract model and certification's recordings all call it, over whichever
// operation list they hold (the loaded document's, or the generated operation table).
import { splitApiPath } from 'storefront-contract/contract';

/** What a matcher needs of an operation: its method (lower case) and its path template. */
export interface PathTemplate {
  method: string;
  path: string;
}

/** Literal segments as strings, parameters as `{ param }`. */
export type Segment = string | { param: string };

const parsed = new Map<string, Segment[]>();

/** `/pos/carts/{id}` -> ['pos', 'carts', { param: 'id' }], parsed once per template. */
export function templateSegments(template: string): Segment[] {
  let segments = parsed.get(template);
  if (!segments) {
    segments = template
      .split('/')
      .filter(Boolean)
      .map((s) => {
        const m = /^\{(.+)\}$/.exec(s);
        return m ? { param: m[1] } : s;
      });
    parsed.set(template, segments);
  }
  return segments;
}

export type PathMatch<T> =
  | { kind: 'match'; operation: T; /** Path parameters as sent (still percent-encoded). */ rawParams: Record<string, string> }
  | { kind: 'no-path' }
  | { kind: 'no-method'; allowed: string[] };

/**
 * The operation of `operations` that `method` + `innerPath` (inside the API, from its leading slash) names.
 * A trailing slash is tolerated; an empty segment (`/pos/carts//evaluate-coupons`) names no resource and
 * matches nothing (it must not shift the others into a template). The template with the most literal
 * segments wins (`/products/similar` over `/products/{id}`); a path that exists without the method is
 * `no-method` with the methods it has.
 */
export function matchPath<T extends PathTemplate>(operations: readonly T[], method: string, innerPath: string): PathMatch<T> {
  let inner = innerPath || '/';
  if (inner.length > 1 && inner.endsWith('/')) inner = inner.slice(0, -1);
  const raw = inner === '/' ? [] : inner.slice(1).split('/');
  if (raw.includes('')) return { kind: 'no-path' };
  let best: { ops: T[]; literals: number } | undefined;
  const byPath = new Map<string, T[]>();
  for (const op of operations) {
    const segments = templateSegments(op.path);
    if (segments.length !== raw.length) continue;
    let literals = 0;
    let ok = true;
    for (let i = 0; i < raw.length && ok; i++) {
      const seg = segments[i];
      if (typeof seg !== 'string') continue;
      if (seg === raw[i]) literals++;
      else ok = false;
    }
    if (!ok) continue;
    const list = byPath.get(op.path) ?? [];
    list.push(op);
    byPath.set(op.path, list);
    if (!best || literals > best.literals) best = { ops: list, literals };
  }
  if (!best) return { kind: 'no-path' };
  const wanted = method.toLowerCase();
  const operation = best.ops.find((op) => op.method === wanted);
  if (!operation) return { kind: 'no-method', allowed: best.ops.map((op) => op.method.toUpperCase()) };
  const rawParams: Record<string, string> = {};
  templateSegments(operation.path).forEach((seg, i) => {
    if (typeof seg !== 'string') rawParams[seg.param] = raw[i];
  });
  return { kind: 'match', operation, rawParams };
}

export type ApiMatch<T> =
  | { kind: 'no-api' }
  | ((PathMatch<T> & { kind: 'match' | 'no-path' | 'no-method' }) & {
      api: string;
      /** The store id segment as sent (still percent-encoded). */
      rawStoreId: string;
      /** The path inside the API ('/' when the request named the base itself). */
      innerPath: string;
    });

/** A whole pathname (`/api/v1/s1/storefront/catalog/products`): which API (by the library's base path split), then which operation. */
export function matchApiPath<T extends PathTemplate>(apis: (api: string) => readonly T[] | undefined, method: string, pathname: string): ApiMatch<T> {
  const split = splitApiPath(pathname);
  const operations = split && apis(split.api);
  if (!split || !operations) return { kind: 'no-api' };
  let innerPath = split.innerPath || '/';
  if (innerPath.length > 1 && innerPath.endsWith('/')) innerPath = innerPath.slice(0, -1);
  return { ...matchPath(operations, method, innerPath), api: split.api, rawStoreId: split.rawStoreId, innerPath };
}
