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

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
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
