// Where each API lives on a host: `{base_url}` + the base path of the document's first server
// (`/api/v1/{store_id}/storefront`, `/api/v1/{store_id}/admin`), read from the generated base paths so
// no other file spells the prefix out.
import { basePaths } from '../../generated/base-paths.js';

export type ApiName = 'storefront' | 'admin';

/** The base path templates, `{store_id}` unexpanded: `/api/v1/{store_id}/storefront`. */
export const basePathTemplate: Readonly<Record<ApiName, string>> = basePaths;

/** `/api/v1/demo-store/storefront`: the base path of one store, its id percent-encoded. */
export function basePath(api: ApiName, storeId: string): string {
  return basePathTemplate[api].replace('{store_id}', encodeURIComponent(storeId));
}

/** `http://host:4010/api/v1/demo-store/storefront`; a trailing slash on `baseUrl` is dropped. */
export function apiBaseUrl(baseUrl: string, api: ApiName, storeId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${basePath(api, storeId)}`;
}

export interface ApiPath {
  api: string;
  /** The store id segment as sent (still percent-encoded). */
  rawStoreId: string;
  /** The path inside the API, from its leading slash ('' when the request named the base itself). */
  innerPath: string;
}

// Both templates share the shape `<prefix>/{store_id}/<api>`; the API name is the last segment.
function apiPathPattern(): RegExp {
  const prefix = basePathTemplate.storefront.split('/{store_id}/')[0]!;
  return new RegExp(`^${prefix.replace(/[/.]/g, '\\$&')}/([^/]+)/([^/]+)(/.*)?$`);
}
// Pure: a bundle that never splits paths (the typed clients) leaves the pattern out.
const API_PATH = /* @__PURE__ */ apiPathPattern();

/** Splits `/api/v1/s1/storefront/catalog/products`; undefined when the path is outside every API. */
export function splitApiPath(pathname: string): ApiPath | undefined {
  const m = API_PATH.exec(pathname);
  return m ? { rawStoreId: m[1]!, api: m[2]!, innerPath: m[3] ?? '' } : undefined;
}
