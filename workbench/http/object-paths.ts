// Guards for object paths and keys that come from users (dotted `unset` paths, `--set` paths, merge
// keys). Walking `__proto__`, `constructor` or `prototype` would reach shared prototypes, and deleting
// or assigning there changes every object of the process; so these names are refused everywhere a
// user-supplied path is walked, and a walk only ever descends into own properties. The walks over whole
// values are iterative and bounded in depth: user JSON nested thousands of levels deep is refused, never a
// stack overflow.

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

/**
 * How deep user JSON may nest (register SF-038): the top-level body is level 1, `{"a": {}}` reaches level
 * 2. The contract's deepest body and event payload stay under 10 levels; a limit keeps every later walk
 * (merges, clones, serializers) far from the call stack's end, whatever the parser accepted.
 */
export const MAX_JSON_DEPTH = 64;

/** What `inspectUserJson` refuses: a prototype key, or a value nested past the limit, with its dotted path. */
export type JsonProblem = { kind: 'unsafe-key' | 'too-deep'; path: string };

/** A path as a chain of links to its parent, so that descending costs nothing until a path is shown. */
type PathLink = { key: string; parent: PathLink | undefined } | undefined;

/** The dotted form of a path; a long chain of keys is cut so that it never makes a long message. */
function shownPath(link: PathLink, limit = Number.POSITIVE_INFINITY): string {
  const segments: string[] = [];
  for (let at = link; at !== undefined; at = at.parent) segments.push(at.key);
  const dotted = segments.reverse().join('.');
  return dotted.length > limit ? `${dotted.slice(0, limit - 3)}...` : dotted;
}

/**
 * The first problem of a parsed JSON value, in document order: a refused key anywhere, or a value nested
 * deeper than `maxDepth` (only the latter with 'depth-only'). Iterative (an explicit stack), so no input can exhaust the call stack.
 */
export function inspectUserJson(value: unknown, maxDepth = MAX_JSON_DEPTH, keys: 'check-keys' | 'depth-only' = 'check-keys'): JsonProblem | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  // Each entry is a member still to visit (the root has no key); popped in document order, a key is
  // judged before anything inside its value, as a recursive walk would.
  const stack: Array<{ value: unknown; depth: number; path: PathLink }> = [{ value, depth: 1, path: undefined }];
  while (stack.length > 0) {
    const here = stack.pop()!;
    if (keys === 'check-keys' && here.path !== undefined && !isSafeKey(here.path.key)) return { kind: 'unsafe-key', path: shownPath(here.path) };
    if (here.value === null || typeof here.value !== 'object') continue;
    if (here.depth > maxDepth) return { kind: 'too-deep', path: shownPath(here.path, 120) };
    const members = Object.keys(here.value);
    for (let i = members.length - 1; i >= 0; i--) {
      const key = members[i];
      stack.push({ value: (here.value as Record<string, unknown>)[key], depth: here.depth + 1, path: { key, parent: here.path } });
    }
  }
  return undefined;
}

/** The dotted path of the first refused key anywhere inside a parsed JSON value, if any (no depth limit; iterative). */
export function findUnsafeKey(value: unknown): string | undefined {
  const problem = inspectUserJson(value, Number.POSITIVE_INFINITY);
  return problem?.kind === 'unsafe-key' ? problem.path : undefined;
}

/** The error item and message for a value nested past the limit. */
export function tooDeep(path: string, maxDepth = MAX_JSON_DEPTH): { message: string; item: { location: 'body'; name: string; message: string } } {
  return {
    message: `Body is nested more than ${maxDepth} levels deep (at ${path || '(body)'}); the limit is ${maxDepth} levels.`,
    item: { location: 'body', name: path || '(body)', message: `is nested more than ${maxDepth} levels deep (the limit is ${maxDepth})` },
  };
}
