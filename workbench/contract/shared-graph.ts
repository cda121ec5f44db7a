// A JSON form of an object graph that keeps its sharing: an object or array reached from more than one
// place (a schema several operations `$ref`, once dereferenced) is written once in `shared` and named by
// `{ "$sfc-shared": index }` wherever it appears; decoding gives back one object for it, as in the
// original (the validators compile each shared schema once; the ref parser's `$refs.get(file)` is the
// same object the document holds). The build (scripts/build-msw-browser.ts) encodes the storefront
// document with it; the browser build's ref parser (msw/browser/ref-parser.ts) decodes it; the tools' cache of
// dereferenced documents (document-cache.ts) stores its entries in it.

export const SHARED_KEY = '$sfc-shared';

export interface SharedGraph {
  shared: unknown[];
  root: unknown;
  parts: Record<string, unknown>;
}

/** Encodes `root` and named `parts` (objects inside or beside it) as one graph; throws on a value JSON cannot hold. */
export function encodeShared(root: unknown, parts: Record<string, unknown> = {}): SharedGraph {
  const seen = new Map<object, number>();
  const count = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const times = (seen.get(node) ?? 0) + 1;
    seen.set(node, times);
    if (times > 1) return;
    if (!Array.isArray(node)) {
      const proto = Object.getPrototypeOf(node);
      // A Buffer, a Date, a Map: JSON would keep none of them as they are.
      if (proto !== Object.prototype && proto !== null) throw new Error(`encodeShared: a ${proto?.constructor?.name ?? 'non-plain'} object has no JSON form`);
      if (SHARED_KEY in node) throw new Error(`encodeShared: an object already has the key ${SHARED_KEY}`);
    }
    for (const value of Object.values(node)) count(value);
  };
  count(root);
  for (const part of Object.values(parts)) count(part);
  const index = new Map<object, number>();
  const shared: unknown[] = [];
  const encode = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') {
      if (typeof node === 'number' && !Number.isFinite(node)) throw new Error(`encodeShared: ${node} has no JSON form`);
      if (typeof node === 'function' || typeof node === 'symbol' || typeof node === 'bigint') throw new Error(`encodeShared: a ${typeof node} has no JSON form`);
      return node;
    }
    if ((seen.get(node) ?? 0) > 1) {
      let at = index.get(node);
      if (at === undefined) {
        at = shared.length;
        index.set(node, at);
        shared.push(undefined);
        shared[at] = body(node);
      }
      return { [SHARED_KEY]: at };
    }
    return body(node);
  };
  const body = (node: object): unknown => (Array.isArray(node) ? node.map(encode) : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, encode(v)])));
  return { root: encode(root), parts: Object.fromEntries(Object.entries(parts).map(([name, part]) => [name, encode(part)])), shared };
}

/**
 * Rebuilds a graph written by encodeShared: every `{ "$sfc-shared": i }` becomes the one object `shared[i]`.
 * In place: the containers of `root`, `parts` and `shared` (a fresh JSON.parse result, or a snapshot decoded
 * once) become the graph's objects, so nothing is copied (the encoded form is a tree apart from its markers,
 * so each container is filled once).
 */
export function decodeShared(root: unknown, shared: readonly unknown[], parts: Record<string, unknown> = {}): { root: unknown; parts: Record<string, unknown> } {
  const filled = new Set<number>();
  const decode = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (!Array.isArray(node)) {
      const index = (node as Record<string, unknown>)[SHARED_KEY];
      if (typeof index === 'number' && Object.keys(node).length === 1) return sharedAt(index);
    }
    return fill(node);
  };
  // Marked filled before its contents are decoded, so a shared object inside itself stays one.
  const sharedAt = (index: number): unknown => {
    const target = shared[index];
    if (target === null || typeof target !== 'object') throw new Error(`embedded contract: shared entry ${index} is missing`);
    if (!filled.has(index)) {
      filled.add(index);
      fill(target);
    }
    return target;
  };
  const fill = (node: any): unknown => {
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) node[i] = decode(node[i]);
    else
      for (const key of Object.keys(node)) {
        // An own property even for `__proto__` (which JSON.parse keeps as one): never the prototype.
        if (key === '__proto__') Object.defineProperty(node, key, { value: decode(node[key]), enumerable: true, writable: true, configurable: true });
        else node[key] = decode(node[key]);
      }
    return node;
  };
  return { root: decode(root), parts: Object.fromEntries(Object.entries(parts).map(([name, part]) => [name, decode(part)])) };
}
