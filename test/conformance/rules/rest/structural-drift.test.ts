import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { drift, structuralDrift } from '../../../../conformance/rules/rest/structural-drift.js';
import { view, type View } from '../view.js';
import { exchange, type ExchangeInput } from './exchange.js';

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
