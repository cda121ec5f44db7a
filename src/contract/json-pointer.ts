// JSON pointers (RFC 6901), for scripts, the certifier and tests: reading the value at
// `/content/products/0/id` or `#/components/schemas/Cart` (a leading `#` of a URI fragment is allowed).
export function getPointer(value: unknown, pointer: string): unknown {
  const path = pointer.replace(/^#/, '');
  if (path === '' || path === '/') return value;
  let at: unknown = value;
  for (const raw of path.replace(/^\//, '').split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = at[Number(seg)];
    else if (at && typeof at === 'object') at = (at as Record<string, unknown>)[seg];
    else return undefined;
  }
  return at;
}
