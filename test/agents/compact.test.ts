// The pieces every agent result is cut with (workbench/agents/compact.ts): both sides of each bound.
import { describe, expect, it } from 'vitest';
import { bounded, byteLength, fieldLines, firstSentence, redacted, shapeOf, typeText } from '../../workbench/agents/compact.js';

describe('firstSentence', () => {
  it.each([
    ['the first sentence only', 'One. Two.', 140, 'One.'],
    ['a version number is not a sentence end', 'Uses v1.2 of it. Then.', 140, 'Uses v1.2 of it.'],
    ['lines folded', 'A\n  b c.', 140, 'A b c.'],
    ['exactly at the bound: whole', 'abcde', 5, 'abcde'],
    ['one past the bound: cut with an ellipsis', 'abcdef', 5, 'abcd…'],
  ])('%s', (_name, text, max, want) => expect(firstSentence(text, max)).toBe(want));

  it.each([[undefined], [''], ['   '], [42]])('nothing for %j', (text) => expect(firstSentence(text)).toBeUndefined());
});

describe('typeText', () => {
  it.each([
    ['a bounded string', { type: 'string', minLength: 1, maxLength: 255 }, 'string(1..255)'],
    ['a format', { type: 'string', format: 'date-time' }, 'string(date-time)'],
    ['a short pattern', { type: 'string', pattern: '^[a-z]+$' }, 'string(/^[a-z]+$/)'],
    ['a long pattern is left out', { type: 'string', pattern: `^${'a'.repeat(41)}$` }, 'string'],
    ['an integer range', { type: 'integer', minimum: 1, maximum: 100 }, 'integer(1..100)'],
    ['a lower bound only', { type: 'number', minimum: 0 }, 'number(>=0)'],
    ['nullable', { type: ['string', 'null'] }, 'string | null'],
    ['a const', { const: false }, 'false'],
    ['an enum of 12 values: all of them', { enum: Array.from({ length: 12 }, (_, i) => `v${i}`) }, Array.from({ length: 12 }, (_, i) => `"v${i}"`).join(' | ')],
    ['an enum of 13: 12 and the count', { enum: Array.from({ length: 13 }, (_, i) => `v${i}`) }, `${Array.from({ length: 12 }, (_, i) => `"v${i}"`).join(' | ')} | … (13 values)`],
    ['a list with a bound', { type: 'array', items: { type: 'string' }, maxItems: 50 }, 'string[] (<=50 items)'],
    ['a list of alternatives in parentheses', { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }, '(string | integer)[]'],
    ['an object at the top level', { type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'integer' } } }, '{ a: string; b?: integer }'],
    ['a named schema below the top is its name', { type: 'object', properties: { cart: { title: 'Cart', type: 'object', properties: { id: { type: 'string' } } } } }, '{ cart?: Cart }'],
    ['a map', { type: 'object', additionalProperties: { type: 'string' } }, 'Record<string, string>'],
    ['allOf merged', { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { properties: { b: { type: 'boolean' } }, required: ['b'] }] }, '{ a?: string; b: boolean }'],
    ['nothing known', {}, 'any'],
  ])('%s', (_name, schema, want) => expect(typeText(schema)).toBe(want));

  it('writes objects out to the depth asked, then counts their fields', () => {
    const schema = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'string' } } } } } } };
    expect(typeText(schema, { depth: 1 })).toBe('{ a?: object (1 fields) }');
    expect(typeText(schema, { depth: 2 })).toBe('{ a?: { b?: object (1 fields) } }');
    expect(typeText(schema, { depth: 3 })).toBe('{ a?: { b?: { c?: string } } }');
  });
});

describe('fieldLines', () => {
  it('one line a field: type, required, first sentence; without the sentences when asked', () => {
    const schema = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'The id. More.' }, n: { type: 'integer' } } };
    expect(fieldLines(schema)).toEqual({ id: 'string, required: The id.', n: 'integer' });
    expect(fieldLines(schema, { about: false })).toEqual({ id: 'string, required', n: 'integer' });
  });
});

describe('shapeOf', () => {
  it('keeps `items` entries of a list and says how many more', () => {
    expect(shapeOf([1, 2, 3], { items: 2 })).toEqual([1, 2, '… 1 more']);
    expect(shapeOf([1, 2], { items: 2 })).toEqual([1, 2]);
  });
  it('cuts strings past `chars`, not at it', () => {
    expect(shapeOf('abcd', { chars: 4 })).toBe('abcd');
    expect(shapeOf('abcde', { chars: 4 })).toBe('abcd…(5 chars)');
  });
  it('summarises below `depth`', () => {
    expect(shapeOf({ a: { b: [1, 2] } }, { depth: 1 })).toEqual({ a: '{… 1 fields}' });
    expect(shapeOf({ a: { b: [1, 2] } }, { depth: 2, items: 5 })).toEqual({ a: { b: '[… 2 items]' } });
  });
});

describe('bounded', () => {
  const value = { list: Array.from({ length: 50 }, (_, i) => ({ i, text: 'x'.repeat(30) })) };
  const size = byteLength(value);

  it('leaves a value at the budget as it is', () => {
    expect(bounded(value, size)).toEqual({ value, truncated: false });
  });

  it('cuts a value one byte over, to within the budget', () => {
    const cut = bounded(value, size - 1);
    expect(cut.truncated).toBe(true);
    expect(byteLength(cut.value)).toBeLessThanOrEqual(size - 1);
    expect((cut.value as { list: unknown[] }).list.at(-1)).toMatch(/^… \d+ more$/);
  });

  it('answers a note when even the outline does not fit', () => {
    const cut = bounded(value, 10);
    expect(cut).toEqual({ value: `(${size} bytes of JSON, too large to show: narrow the request)`, truncated: true });
  });
});

describe('redacted', () => {
  it('replaces credential fields wherever they are, and leaves null and empty ones', () => {
    const out = redacted({ content: { access_token: 'eyJabc.def', refresh_token: null, secret: '', user: { api_key: 'k' }, list: [{ token: 't' }] } });
    expect(out).toEqual({ content: { access_token: '[redacted]', refresh_token: null, secret: '', user: { api_key: '[redacted]' }, list: [{ token: '[redacted]' }] } });
  });

  it('says why a signing secret is hidden and where a receiver gets one', () => {
    expect(redacted({ secret: 'whsec_1' })).toEqual({ secret: expect.stringMatching(/^\[redacted: signing secrets are never shown to agents; .*webhooks listen/) });
  });

  it('replaces a known secret inside any string; one under 8 characters is not looked for', () => {
    const secrets = new Set(['sk_test_12345678', 'short12']);
    expect(redacted({ url: 'https://x/?k=sk_test_12345678&a=1', note: 'short12 stays' }, secrets)).toEqual({ url: 'https://x/?k=[redacted]&a=1', note: 'short12 stays' });
  });
});
