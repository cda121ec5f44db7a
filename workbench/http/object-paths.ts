// Guards for object paths and keys that come from users (dotted `unset` paths, `--set` paths, merge
// keys). Walking `__proto__`, `constructor` or `prototype` would reach shared prototypes, and deleting
// or assigning there changes every object of the process; so these names are refused everywhere a
// user-supplied path is walked, and a walk only ever descends into own properties.

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** True when `key` may name a property in a user-supplied path. */
export function isSafeKey(key: string): boolean {
  return !FORBIDDEN.has(key);
}

/** The first segment of `keys` that is not allowed, if any. */
export function unsafeSegment(keys: readonly string[]): string | undefined {
  return keys.find((key) => !isSafeKey(key));
}

/** `holder[key]` when it is the holder's own property and the key is allowed; otherwise undefined. */
export function ownChild(holder: unknown, key: string): unknown {
  if (holder === null || typeof holder !== 'object' || !isSafeKey(key) || !Object.hasOwn(holder, key)) return undefined;
  return (holder as Record<string, unknown>)[key];
}

/** The dotted path of the first refused key anywhere inside a parsed JSON value, if any. */
export function findUnsafeKey(value: unknown, at = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    const here = at ? `${at}.${key}` : key;
    if (!isSafeKey(key)) return here;
    const inner = findUnsafeKey((value as Record<string, unknown>)[key], here);
    if (inner !== undefined) return inner;
  }
  return undefined;
}
