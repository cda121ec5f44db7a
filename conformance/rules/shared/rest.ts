// Helpers shared by the REST rules (conformance/rules/rest/).
export function statusClass(status: number): string {
  return `${String(status)[0]}XX`;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** `GET /catalog/products?page=0` for messages. */
export function describeRequest(url: string, method: string): string {
  const u = new URL(url);
  return `${method} ${u.pathname.replace(/^\/api\/v1\/[^/]+\/storefront/, '')}${u.search}`;
}
