// Maps a real URL path (`/api/v1/{store_id}/storefront/catalog/products`) to one operation of one mounted
// document, with the tools' one matcher (workbench/contract/match.ts), and turns its answer into the
// front's: ids decoded (bad percent-encoding is a 400). Prism ignores server base paths, so the front
// hands Prism only the path the document declares (`innerPath`).
import { matchApiPath } from '../contract/match.js';
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
  // HEAD is answered like GET (without a body), as node:http and most servers do.
  const found = matchApiPath((api) => mounts.get(api)?.document.operations, method === 'head' ? 'get' : method, pathname);
  if (found.kind === 'no-api') return { kind: 'no-mount' };
  const mount = mounts.get(found.api)!;
  const storeId = safeDecode(found.rawStoreId, 'path', 'store_id');
  const innerPath = found.innerPath;
  if (found.kind === 'no-path') return { kind: 'no-path', mount, innerPath };
  if (found.kind === 'no-method') return { kind: 'no-method', mount, innerPath, allowed: found.allowed };
  const pathParams: Record<string, string> = {};
  for (const [name, raw] of Object.entries(found.rawParams)) pathParams[name] = safeDecode(raw, 'path', name);
  return { kind: 'match', match: { mount, storeId, innerPath, operation: found.operation, pathParams } };
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
