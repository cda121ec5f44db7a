// JSON pointers (RFC 6901), for scripts, the certifier and tests: reading the value at
// `/content/products/0/id` or `#/components/schemas/Cart` (a leading `#` of a URI fragment is allowed),
// and the one escape and unescape of a segment (`~` <-> `~0`, `/` <-> `~1`) every caller uses.

/** `a/b~c` -> `a~1b~0c`: a key as one pointer segment. */
export function escapePointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `a~1b~0c` -> `a/b~c` (`~1` first, so `~01` stays `~1`). */
export function unescapePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `/items/0/a~1b` -> ['items', '0', 'a/b']; '' and '/' (the whole value) -> []. A leading `#` is allowed. */
export function pointerSegments(pointer: string): string[] {
  const path = pointer.replace(/^#/, '');
  if (path === '' || path === '/') return [];
  return path.replace(/^\//, '').split('/').map(unescapePointerSegment);
}

/** ['items', 0, 'a/b'] -> `/items/0/a~1b`; [] -> ''. */
export function toPointer(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => `/${escapePointerSegment(String(s))}`).join('');
}

export function getPointer(value: unknown, pointer: string): unknown {
  let at: unknown = value;
  for (const seg of pointerSegments(pointer)) {
    if (Array.isArray(at)) at = at[Number(seg)];
    else if (at && typeof at === 'object') at = (at as Record<string, unknown>)[seg];
    else return undefined;
  }
  return at;
}
