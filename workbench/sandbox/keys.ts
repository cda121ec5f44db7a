// Keys that must never become object paths. Users send JSON (request bodies, fixture files, sort_by)
// whose keys JSON.parse turns into own properties; `__proto__`, `constructor` and `prototype` are refused
// wherever such a key could be used to walk or build an object. Lookups by user-supplied names (ids,
// store ids, sort fields, group ids) go through Maps, never through plain objects.
// (Same rule as workbench/http/object-paths.ts on main; unify when both land.)

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

export function isSafeKey(key: string): boolean {
  return !FORBIDDEN.has(key);
}

/** The dotted path of the first refused key anywhere inside a parsed JSON value, if any. */
export function findUnsafeKey(value: unknown, at = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner = findUnsafeKey(value[i], `${at}[${i}]`);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const here = at ? `${at}.${key}` : key;
    if (!isSafeKey(key)) return here;
    const inner = findUnsafeKey((value as Record<string, unknown>)[key], here);
    if (inner !== undefined) return inner;
  }
  return undefined;
}
