// Maps a real URL path (`/api/v1/{store_id}/storefront/catalog/products`) to one operation of one
// document. Prism ignores server base paths, so the front strips the mount prefix here and hands
// Prism only the path the document declares.
import { splitApiPath } from 'storefront-contract/contract';
import { MockHttpError } from '../http/errors.js';
import type { DocumentModel, OperationModel } from './spec-model.js';

export interface Mount {
  /** `storefront` or `admin`: the segment after `/api/v1/{store_id}/`. */
  segment: string;
  document: DocumentModel;
}

export interface RouteMatch {
  mount: Mount;
  storeId: string;
  /** The path inside the document, e.g. `/catalog/products`. */
  innerPath: string;
  operation: OperationModel;
  pathParams: Record<string, string>;
}

export type RouteResult =
  | { kind: 'match'; match: RouteMatch }
  | { kind: 'no-mount' }
  | { kind: 'no-path'; mount: Mount; innerPath: string }
  | { kind: 'no-method'; mount: Mount; innerPath: string; allowed: string[] };

export function route(mounts: Map<string, Mount>, pathname: string, method: string): RouteResult {
  const api = splitApiPath(pathname);
  const mount = api ? mounts.get(api.api) : undefined;
  if (!api || !mount) return { kind: 'no-mount' };
  const storeId = safeDecode(api.rawStoreId, 'path', 'store_id');
  // A trailing slash is tolerated: clients that build URLs by concatenation often add one.
  let innerPath = api.innerPath || '/';
  if (innerPath.length > 1 && innerPath.endsWith('/')) innerPath = innerPath.slice(0, -1);
  const raw = innerPath === '/' ? [] : innerPath.slice(1).split('/');
  // An empty segment (`/pos/carts//evaluate-coupons`) names no resource: it must not shift the others
  // into a template (`{id}` = `evaluate-coupons`), so it is a 404, never another operation.
  if (raw.includes('')) return { kind: 'no-path', mount, innerPath };

  let best: { ops: OperationModel[]; literals: number } | undefined;
  const byPath = new Map<string, OperationModel[]>();
  for (const op of mount.document.operations) {
    if (op.segments.length !== raw.length) continue;
    let literals = 0;
    let ok = true;
    for (let i = 0; i < raw.length; i++) {
      const seg = op.segments[i];
      if (typeof seg === 'string') {
        if (seg !== raw[i]) {
          ok = false;
          break;
        }
        literals++;
      }
    }
    if (!ok) continue;
    const list = byPath.get(op.path) ?? [];
    list.push(op);
    byPath.set(op.path, list);
    // The template with the most literal segments wins (`/products/similar` over `/products/{id}`).
    if (!best || literals > best.literals) best = { ops: list, literals };
  }
  if (!best) return { kind: 'no-path', mount, innerPath };
  // HEAD is answered like GET (without a body), as node:http and most servers do.
  const wanted = method === 'head' ? 'get' : method;
  const operation = best.ops.find((op) => op.method === wanted);
  if (!operation) {
    return { kind: 'no-method', mount, innerPath, allowed: best.ops.map((op) => op.method.toUpperCase()) };
  }
  const pathParams: Record<string, string> = {};
  operation.segments.forEach((seg, i) => {
    if (typeof seg !== 'string') pathParams[seg.param] = safeDecode(raw[i], 'path', seg.param);
  });
  return { kind: 'match', match: { mount, storeId, innerPath, operation, pathParams } };
}

function safeDecode(value: string, location: 'path', name: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new MockHttpError(400, 'invalid_parameter', `Path parameter '${name}' is not valid percent-encoding.`, [
      { location, name, message: 'is not valid percent-encoding' },
    ]);
  }
}
