// Which storefront operation a recorded URL is: the path after `/api/v1/{store_id}/storefront`
// matched against the generated operation table.
import { storefrontOperations } from 'storefront-contract';

export type OperationMeta = (typeof storefrontOperations)[keyof typeof storefrontOperations];
export type OperationId = keyof typeof storefrontOperations;

export const operations: OperationMeta[] = Object.values(storefrontOperations);

const PREFIX_RE = /^\/api\/v1\/([^/]+)\/storefront(\/.*)?$/;

const matchers = operations.map((op) => {
  const literal = op.path.split('/').filter((s) => !s.startsWith('{')).length;
  const re = new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
  return { op, re, literal };
});
// More literal segments first: `/pos/carts/{id}/evaluate-coupons` before anything looser.
matchers.sort((a, b) => b.literal - a.literal);

export interface ParsedPath {
  storeId: string;
  /** Path inside the storefront API, still percent-encoded. */
  inner: string;
}

export function splitStorefrontPath(pathname: string): ParsedPath | undefined {
  const m = PREFIX_RE.exec(pathname);
  if (!m) return undefined;
  return { storeId: decodeURIComponent(m[1]), inner: m[2] ?? '/' };
}

export function matchOperation(method: string, inner: string): OperationMeta | undefined {
  const lower = method.toLowerCase();
  return matchers.find((m) => m.op.method === lower && m.re.test(inner))?.op;
}

export function documentedStatuses(op: OperationMeta): string[] {
  return [...op.responses];
}
