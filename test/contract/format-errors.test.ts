// describeError and formatErrors (storefront-contract/validators): how an Ajv error becomes the envelope's
// item (name and message), on real Ajv errors. A property a closed schema refuses is named by its own path,
// whether the schema is closed by `additionalProperties` or over its allOf parts by `unevaluatedProperties`
// (the workbench API's cart bodies): the item names the field, not the body.
import { describe, expect, it } from 'vitest';
import { describeError, formatErrors, relevantErrors } from 'storefront-contract/validators';
import { getAjv } from '../../workbench/mock/ajv.js';

const fields = { type: 'object', properties: { line: { type: 'object', properties: { qty: { type: 'integer' } } } } };
const closedDirectly = { ...fields, additionalProperties: false, properties: { line: { ...fields.properties.line, additionalProperties: false } } };
const closedOverParts = { allOf: [fields], unevaluatedProperties: false, properties: { id: { type: 'string' } } };

function errorsOf(schema: object, value: unknown) {
  const validate = getAjv().compile(schema);
  expect(validate(value)).toBe(false);
  return validate.errors!;
}

describe('describeError', () => {
  it('names a property refused by additionalProperties, at the top and nested', () => {
    expect(errorsOf(closedDirectly, { grand_total: 1 }).map(describeError)).toEqual([{ segments: ['grand_total'], message: 'is not an allowed property' }]);
    expect(errorsOf(closedDirectly, { line: { qty: 1, price: 2 } }).map(describeError)).toEqual([{ segments: ['line', 'price'], message: 'is not an allowed property' }]);
  });

  it('names a property refused by unevaluatedProperties the same way, and keeps what the parts evaluate', () => {
    expect(errorsOf(closedOverParts, { id: 'c1', line: { qty: 1 }, grand_total: 1 }).map(describeError)).toEqual([{ segments: ['grand_total'], message: 'is not an allowed property' }]);
    expect(getAjv().compile(closedOverParts)({ id: 'c1', line: { qty: 1 } })).toBe(true);
  });

  it('a required property is named; a type error keeps its own path', () => {
    expect(errorsOf({ type: 'object', required: ['event'] }, {}).map(describeError)).toEqual([{ segments: ['event'], message: 'is required' }]);
    expect(errorsOf(fields, { line: { qty: 'x' } }).map(describeError)).toEqual([{ segments: ['line', 'qty'], message: 'must be integer' }]);
  });
});

describe('describeError of a pattern', () => {
  it('quotes the pattern as JSON, so a tab or a line feed in it reads as an escape', () => {
    const nonBlank = { type: 'string', pattern: '^[ \t\n\r]*[^ \t\n\r]([^ ]| )*$' };
    const [error] = errorsOf(nonBlank, '  ');
    expect(describeError(error).message).toBe('must match pattern "^[ \\t\\n\\r]*[^ \\t\\n\\r]([^ ]| )*$"');
    expect(describeError(error).message).not.toMatch(/[\t\n\r]/);
  });

  it('leaves every other character as the pattern has it: one backslash stays one', () => {
    const [error] = errorsOf({ type: 'string', pattern: '^\\+[0-9]{1,4}$' }, '91');
    expect(describeError(error).message).toBe('must match pattern "^\\+[0-9]{1,4}$"');
  });
});

describe('formatErrors', () => {
  it('an unevaluated property is a pointer to it, "unexpected", expected absent', () => {
    const value = { grand_total: 1 };
    expect(formatErrors(errorsOf(closedOverParts, value), value)).toEqual([{ path: '/grand_total', message: 'unexpected property "grand_total"', expected: 'absent', got: 'present' }]);
    expect(formatErrors(errorsOf(closedDirectly, value), value)).toEqual([{ path: '/grand_total', message: 'unexpected property "grand_total"', expected: 'absent', got: 'present' }]);
  });
});

describe('relevantErrors', () => {
  const delay = { type: 'object', properties: { delay_ms: { anyOf: [{ type: 'integer', minimum: 0, maximum: 60000 }, { type: 'object', required: ['min', 'max'] }, { type: 'null' }] } } };
  const said = (schema: object, value: unknown) => relevantErrors(errorsOf(schema, value)).map((e) => { const d = describeError(e); return `${d.segments.join('.')} ${d.message}`; });

  it('keeps the errors of the branch whose type the value has, and drops the others and the anyOf', () => {
    expect(errorsOf(delay, { delay_ms: 60001 }).length).toBe(4);
    expect(said(delay, { delay_ms: 60001 })).toEqual(['delay_ms must be <= 60000']);
    expect(said(delay, { delay_ms: { min: 1 } })).toEqual(['delay_ms.max is required']);
  });

  it('names every type when the value has none of them, once', () => {
    expect(said(delay, { delay_ms: 'slow' })).toEqual(['delay_ms must be integer, object or null']);
    expect(said({ oneOf: [{ type: 'string' }, { type: 'boolean' }] }, 5)).toEqual([' must be string or boolean']);
  });

  it('keeps other errors and their order; a oneOf that two branches matched stays its own reason', () => {
    const both = { type: 'object', required: ['a'], properties: { d: delay.properties.delay_ms, z: { type: 'string' } } };
    expect(said(both, { d: -1, z: 1 })).toEqual(['a is required', 'd must be >= 0', 'z must be string']);
    expect(said({ oneOf: [{ type: 'integer' }, { type: 'number' }] }, 5)).toEqual([' must match exactly one schema in oneOf']);
  });

  it('a schema used for every item fails once per item: each item keeps its own error', () => {
    const list = { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'null' }] } };
    expect(said(list, ['x', 'y'])).toEqual(['0 must be integer or null', '1 must be integer or null']);
    const map = { type: 'object', additionalProperties: { anyOf: [{ type: 'integer', maximum: 5 }, { type: 'null' }] } };
    expect(said(map, { a: 9, b: 'x' })).toEqual(['a must be <= 5', 'b must be integer or null']);
  });

  it('several branches of the value\'s type: one error saying either would do, not all of them', () => {
    const clock = { type: 'object', anyOf: [{ required: ['now'] }, { required: ['advance'] }] };
    expect(said(clock, {})).toEqual([' must match one of: now is required; or advance is required']);
    expect(said({ anyOf: [{ const: 'a' }, { const: 'b' }] }, 'c')).toEqual([' must match one of: must be "a"; or must be "b"']);
    const nested = { type: 'object', properties: { d: { anyOf: [{ type: 'object', required: ['min'] }, { type: 'object', required: ['at'] }] } } };
    expect(said(nested, { d: {} })).toEqual(['d must match one of: min is required; or at is required']);
  });

  it('collapses an alternative inside a branch of another', () => {
    const nested = { anyOf: [{ type: 'object', properties: { v: { anyOf: [{ type: 'integer' }, { type: 'null' }] } } }, { type: 'string' }] };
    expect(said(nested, { v: 'x' })).toEqual(['v must be integer or null']);
  });
});
