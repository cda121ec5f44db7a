// Values that satisfy a JSON Schema (the dereferenced subset OpenAPI 3.1 documents use here), as
// fast-check arbitraries, so every generated request can be shrunk to a minimal failing one.
// Why fast-check rather than json-schema-faker (compared in conformance/rest/generate/README.md):
// shrinking, seeded replay and `examples` run first are built in; json-schema-faker has none of them.
import fc from 'fast-check';
import formats from 'ajv-formats/dist/formats.js';
import { mergeAllOf, type JsonSchema } from '../../../workbench/contract/schema.js';

const { fullFormats } = formats;

/** The format check Ajv applies (the same one the validators use), when it is a test of a string. */
function formatCheck(name: string): ((s: string) => boolean) | undefined {
  const f = (fullFormats as Record<string, unknown>)[name];
  if (typeof f === 'function') return f as (s: string) => boolean;
  if (f instanceof RegExp) return (s) => f.test(s);
  const inner = (f as { validate?: unknown } | undefined)?.validate;
  if (typeof inner === 'function') return inner as (s: string) => boolean;
  if (inner instanceof RegExp) return (s) => inner.test(s);
  return undefined;
}

export type { JsonSchema };

const MAX_ITEMS = 4;
const MAX_STRING = 24;

/** The schema's `type` as a list (absent: any JSON type the other keywords allow). */
export function typesOf(schema: JsonSchema): string[] {
  const t = schema.type;
  if (Array.isArray(t)) return t.map(String);
  if (typeof t === 'string') return [t];
  if (schema.properties || schema.required) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

/** An arbitrary of values valid against `schema`. */
export function valueArbitrary(input: JsonSchema): fc.Arbitrary<unknown> {
  const schema = mergeAllOf(input);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...(schema.enum as unknown[]));
  const choices = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(choices) && choices.length) return fc.oneof(...choices.map((c) => valueArbitrary({ ...schema, oneOf: undefined, anyOf: undefined, ...c })));
  const types = typesOf(schema).filter((t) => t !== 'null');
  const arbs = (types.length ? types : ['string']).map((t) => byType(t, schema));
  if (typesOf(schema).includes('null')) arbs.push(fc.constant(null));
  return arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
}

function byType(type: string, schema: JsonSchema): fc.Arbitrary<unknown> {
  switch (type) {
    case 'integer':
      return fc.integer({ min: intBound(schema, 'min'), max: intBound(schema, 'max') });
    case 'number':
      // Whole numbers only: the contract types page as `number` but never says what page 1.5 means,
      // so a fraction would test a guess, not the contract.
      return fc.integer({ min: intBound(schema, 'min'), max: intBound(schema, 'max') });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = (schema.items as JsonSchema | undefined) ?? {};
      const minLength = Number(schema.minItems ?? 0);
      const maxLength = Math.max(minLength, Math.min(Number(schema.maxItems ?? MAX_ITEMS), MAX_ITEMS));
      if (schema.contains && typeof schema.contains === 'object') {
        // `contains`: one item of that schema, then the rest as `items` allows.
        return fc
          .tuple(valueArbitrary(schema.contains as JsonSchema), fc.array(valueArbitrary(items), { minLength: Math.max(0, minLength - 1), maxLength: Math.max(0, maxLength - 1) }))
          .map(([one, rest]) => [one, ...rest]);
      }
      return fc.array(valueArbitrary(items), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema);
    default:
      return stringArbitrary(schema);
  }
}

function objectArbitrary(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) {
    if (sub.readOnly === true) continue;
    model[name] = valueArbitrary(sub);
  }
  const known = fc.record(model, { requiredKeys: required.filter((k) => k in model) });
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object' && Object.keys(properties).length === 0) {
    return fc.dictionary(keyArbitrary((schema.propertyNames as JsonSchema | undefined) ?? {}), valueArbitrary(extra as JsonSchema), { maxKeys: MAX_ITEMS });
  }
  return known;
}

/** Keys a map allows: its `propertyNames` enum, or strings of its pattern and length not matching its `not`. */
function keyArbitrary(names: JsonSchema): fc.Arbitrary<string> {
  if (Array.isArray(names.enum) && names.enum.length) return fc.constantFrom(...(names.enum as string[]));
  const maxLength = Math.min(Number(names.maxLength ?? 12), 12);
  const base = typeof names.pattern === 'string' ? fc.stringMatching(new RegExp(names.pattern)) : fc.string({ minLength: 1, maxLength });
  const not = names.not as JsonSchema | undefined;
  const refused = [not, ...(((not?.anyOf ?? not?.oneOf) as JsonSchema[] | undefined) ?? [])]
    .filter((n): n is JsonSchema => !!n && typeof n.pattern === 'string')
    .map((n) => new RegExp(n.pattern as string));
  return base.filter((k) => k.length >= 1 && k.length <= maxLength && safeKey(k) && !refused.some((re) => re.test(k)));
}

/** Keys a JSON body may carry without tripping prototype guards (those are tested separately). */
function safeKey(key: string): boolean {
  return key !== '__proto__' && key !== 'constructor' && key !== 'prototype';
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  // A JSON-text parameter (sort_by): an encoded value of its content schema.
  if (schema.contentMediaType === 'application/json' && schema.contentSchema) {
    return valueArbitrary(schema.contentSchema as JsonSchema).map((v) => JSON.stringify(v));
  }
  const minLength = Number(schema.minLength ?? 0);
  // Short strings: a long one tests nothing more, and the schema's own maximum is an edge case anyway.
  const maxLength = Math.max(minLength, Math.min(Number(schema.maxLength ?? MAX_STRING), MAX_STRING));
  if (typeof schema.pattern === 'string') {
    // A pattern and a format both apply: strings of the pattern that the format also accepts.
    const format = typeof schema.format === 'string' ? formatCheck(schema.format) : undefined;
    const schemaMax = Number(schema.maxLength ?? Infinity);
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= schemaMax && (!format || format(s)));
  }
  switch (schema.format) {
    case 'email':
      return fc.emailAddress();
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'uri':
      return fc.webUrl();
  }
  // Printable ASCII: what a header or a query value can carry on any server.
  return fc.string({ unit: 'grapheme-ascii', minLength, maxLength });
}

function intBound(schema: JsonSchema, side: 'min' | 'max'): number {
  const n = numBound(schema, side);
  const whole = side === 'min' ? Math.ceil(n) : Math.floor(n);
  // fast-check integers are 32-bit; JSON clients rarely send more.
  return side === 'min' ? Math.max(whole, -(2 ** 31)) : Math.min(whole, 2 ** 31 - 1);
}

function numBound(schema: JsonSchema, side: 'min' | 'max'): number {
  if (side === 'min') {
    if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + (typesOf(schema).includes('integer') ? 1 : 1e-6);
    return typeof schema.minimum === 'number' ? schema.minimum : -1e9;
  }
  if (typeof schema.exclusiveMaximum === 'number') return schema.exclusiveMaximum - (typesOf(schema).includes('integer') ? 1 : 1e-6);
  return typeof schema.maximum === 'number' ? schema.maximum : 1e9;
}

/**
 * Deterministic edge values of a schema, sent before the random ones: the bounds, every enum value,
 * an empty and a full array, a JSON parameter with several keys.
 */
export function edgeValues(input: JsonSchema): unknown[] {
  const schema = mergeAllOf(input);
  if (Array.isArray(schema.enum)) return [...schema.enum];
  const types = typesOf(schema);
  const out: unknown[] = [];
  if (types.includes('integer') || types.includes('number')) {
    const min = numBound(schema, 'min');
    const max = numBound(schema, 'max');
    if (min > -1e9) out.push(types.includes('integer') ? Math.ceil(min) : min);
    if (max < 1e9) out.push(types.includes('integer') ? Math.floor(max) : max);
    if (schema.maximum === undefined) out.push(types.includes('integer') ? 2 ** 31 - 1 : 1e6);
  }
  if (types.includes('boolean')) out.push(true, false);
  if (types.includes('array')) {
    const items = (schema.items as JsonSchema | undefined) ?? {};
    const sample = fc.sample(valueArbitrary(items), { numRuns: 3, seed: 1 });
    if (schema.minItems === undefined) out.push([]);
    out.push(sample);
  }
  if (schema.contentMediaType === 'application/json' && schema.contentSchema) {
    const content = schema.contentSchema as JsonSchema;
    const values = (content.additionalProperties as JsonSchema | undefined)?.enum as unknown[] | undefined;
    const names = ((content.propertyNames as JsonSchema | undefined)?.enum as string[] | undefined) ?? ['name', 'id'];
    out.push('{}');
    if (values?.length) out.push(JSON.stringify({ [names[0]]: values[0], [names[names.length - 1]]: values[values.length - 1] }));
  }
  if (types.includes('string') && typeof schema.minLength === 'number') out.push('x'.repeat(schema.minLength));
  if (types.includes('string') && typeof schema.maxLength === 'number') out.push('x'.repeat(schema.maxLength));
  return out;
}
