// The library's one pointer escape and unescape (RFC 6901): what every tool and script now calls instead
// of its own `~1`/`~0` replace.
import { describe, expect, it } from 'vitest';
import { escapePointerSegment, getPointer, pointerSegments, toPointer, unescapePointerSegment } from 'storefront-contract/contract';

describe('JSON pointer segments', () => {
  it('escapes ~ before / and unescapes ~1 before ~0', () => {
    expect(escapePointerSegment('a/b~c')).toBe('a~1b~0c');
    expect(unescapePointerSegment('a~1b~0c')).toBe('a/b~c');
    // `~01` is an escaped `~` followed by `1`, never a `/`.
    expect(unescapePointerSegment('~01')).toBe('~1');
    expect(escapePointerSegment('~1')).toBe('~01');
  });

  it('round-trips any key', () => {
    for (const key of ['', '/', '~', '~0', '~1', 'a/b/c', '/paths/~1orders']) expect(unescapePointerSegment(escapePointerSegment(key))).toBe(key);
  });

  it('splits and joins whole pointers', () => {
    expect(pointerSegments('#/paths/~1orders/get')).toEqual(['paths', '/orders', 'get']);
    expect(pointerSegments('')).toEqual([]);
    expect(toPointer(['paths', '/orders', 0])).toBe('/paths/~1orders/0');
    expect(getPointer({ paths: { '/orders': { get: [1, 2] } } }, toPointer(['paths', '/orders', 'get', 1]))).toBe(2);
  });
});
