import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { drift, structuralDrift } from '../../../../conformance/rules/rest/structural-drift.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, exchange, skipped, warning } from './exchange.js';

const recorded = { success: true, content: { items: [{ id: 'a', price: 10, tags: ['x'] }], note: null } };

const driftCases: Array<[string, { given: unknown; want: string[] }]> = [
  ['same structure, other data', { given: { success: true, content: { items: [{ id: 'b', price: 12, tags: [] }], note: 'n' } }, want: [] }],
  ['a field missing', { given: { success: true, content: { items: [{ id: 'b', tags: [] }] } }, want: ['/content/items/0/price is missing'] }],
  ['a type changed', { given: { success: true, content: { items: [{ id: 'b', price: '12', tags: [] }] } }, want: ['/content/items/0/price was number, is string'] }],
  ['an empty list (nothing to compare)', { given: { success: true, content: { items: [] } }, want: [] }],
  ['extra fields (not drift)', { given: { success: true, extra: 1, content: { items: [{ id: 'b', price: 1, tags: [], more: true }] } }, want: [] }],
];

// A variant as the spec's example has it, and as another store holds it: other keys in its free-form
// maps (`metadata`: any object; `associated_options`: option key -> AssociatedOption).
const variantOk = YAML.parse(readFileSync('spec/openapi/components/examples/GetVariantOk.yaml', 'utf8')).value;
const otherStore = structuredClone(variantOk);
otherStore.content.variant.metadata = { season: 'summer', batch: 7 };
otherStore.content.variant.associated_options = { colour: { name: 'Colour', type: 'color', value: { name: 'Blue', hexcode: '#0000FF' } } };
const brokenOption = structuredClone(variantOk);
brokenOption.content.variant.associated_options.size.name = 42;
const noHsn = structuredClone(variantOk);
delete noHsn.content.variant.hsn_code;
const getVariant = (body: unknown): ExchangeInput => ({ operationId: 'getVariant', recordedBody: variantOk, body });

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  ['other keys in free-form maps (metadata, associated_options): data, not drift', { given: getVariant(otherStore), want: [] }],
  ['a value of a map key both have changed type', { given: getVariant(brokenOption), want: ['warning: drift from the recording: /content/variant/associated_options/size/name was string, is number'] }],
  ['a declared field missing next to the maps', { given: getVariant(noHsn), want: ['warning: drift from the recording: /content/variant/hsn_code is missing'] }],
  ['drift at the recorded status, as a warning', { given: { recordedBody: recorded, body: { success: true }, status: 200 }, want: ['warning: drift from the recording: /content is missing'] }],
  ['another status than recorded (skipped)', { given: { recordedStatus: 200, recordedBody: recorded, status: 400, body: {} }, want: 'skipped' }],
];

describe('structural-drift', () => {
  it.each(driftCases)('drift: %s', (_, { given, want }) => {
    expect(drift(recorded, given)).toEqual(want);
  });

  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(structuralDrift, exchange(given))).toEqual(want);
  });

  it('is advice: designed, a warning', () => {
    expect(structuralDrift.severity).toBe('warning');
    expect(structuralDrift.source.kind).toBe('designed');
  });
});

describe('issue 38: structural-drift, its bounds and why it skips', () => {
  it('at most 8 differences are listed', () => {
    const wide = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, i]));
    expect(drift(wide, {})).toEqual(Array.from({ length: 8 }, (_, i) => `/f${i} is missing`));
    const eight = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, i]));
    expect(drift(eight, {})).toHaveLength(8);
    expect(drift({ a: 1, b: { c: 1, d: 2 } }, { a: 1, b: {} }, undefined, '', ['x', 'x', 'x', 'x', 'x', 'x', 'x'])).toEqual(['x', 'x', 'x', 'x', 'x', 'x', 'x', '/b/c is missing']);
  });

  it.each<[string, unknown, unknown, string[]]>([
    ['the whole body missing', { a: 1 }, undefined, ['/ is missing']],
    ['the whole body of another type', { a: 1 }, [1], ['/ was object, is array']],
    ['a number for a text at the top', 'a', 1, ['/ was string, is number']],
    ['null recorded: anything may come', { a: null }, { a: { b: 1 } }, []],
    ['null now where an object was (an optional value absent)', { a: { b: 1 } }, { a: null }, []],
    ['a list recorded empty', { a: [] }, { a: [1] }, []],
    ['the first items of lists compared', { a: [{ b: 1 }] }, { a: [{ b: '1' }, { b: 2 }] }, ['/a/0/b was number, is string']],
    ['a list of lists', [[1]], [['x']], ['/0/0 was number, is string']],
    ['nothing recorded', undefined, { a: 1 }, []],
    ['a value recorded as undefined', { a: undefined }, { a: 1 }, []],
  ])('drift: %s', (_, recorded, live, want) => {
    expect(drift(recorded, live)).toEqual(want);
  });

  it('a free-form map without a value schema: the values of keys both have are data too', () => {
    const metadata = structuredClone(variantOk);
    metadata.content.variant.metadata = { batch: 7 };
    const changed = structuredClone(variantOk);
    changed.content.variant.metadata = { batch: 'seven' };
    expect(judge(structuralDrift, exchange(getVariant(changed)))).toEqual(judge(structuralDrift, exchange(getVariant(metadata))));
    expect(judge(structuralDrift, exchange({ ...getVariant(changed), recordedBody: metadata }))).toEqual([]);
  });

  it('the finding is advice on the body; the status or a body it cannot compare is a skip', () => {
    expect(judge(structuralDrift, exchange({ recordedBody: recorded, body: { success: 'yes', content: recorded.content } }))).toEqual([warning('body', 'drift from the recording: /success was boolean, is string')]);
    expect(judge(structuralDrift, exchange({ recordedBody: recorded, body: {}, status: 200 }))).toEqual([warning('body', 'drift from the recording: /success is missing; /content is missing')]);
    expect(judge(structuralDrift, exchange({ recordedStatus: 201, recordedBody: recorded, status: 200, body: {} }))).toEqual(skipped("the status differs from the recording's 201"));
    expect(judge(structuralDrift, exchange({ recordedBody: recorded, body: undefined, parseError: 'x' }))).toEqual(skipped('no JSON body to compare'));
    expect(judge(structuralDrift, exchange({ recordedBody: undefined, body: {} }))).toEqual(skipped('no JSON body to compare'));
    expect(judge(structuralDrift, exchange({ recordedBody: 'text', body: {} }))).toEqual(skipped('no JSON body to compare'));
    expect(judge(structuralDrift, exchange({ recordedBody: null, body: {} }))).toEqual([]);
  });
});
