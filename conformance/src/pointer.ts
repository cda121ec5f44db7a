// JSON pointers (RFC 6901): reading a value at `/content/products/0/id`.
export function getPointer(value: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return value;
  let at: unknown = value;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) at = at[Number(seg)];
    else if (at && typeof at === 'object') at = (at as Record<string, unknown>)[seg];
    else return undefined;
  }
  return at;
}
