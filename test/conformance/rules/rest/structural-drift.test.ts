import { describe, expect, it } from 'vitest';
import { drift, structuralDrift } from '../../../../conformance/rules/rest/structural-drift.js';
import { exchange } from './exchange.js';

const recorded = { success: true, content: { items: [{ id: 'a', price: 10, tags: ['x'] }], note: null } };

describe('structural-drift', () => {
  it.each([
    ['same structure, other data', { success: true, content: { items: [{ id: 'b', price: 12, tags: [] }], note: 'n' } }, []],
    ['a field missing', { success: true, content: { items: [{ id: 'b', tags: [] }] } }, ['/content/items/0/price is missing']],
    ['a type changed', { success: true, content: { items: [{ id: 'b', price: '12', tags: [] }] } }, ['/content/items/0/price was number, is string']],
    ['an empty list (nothing to compare)', { success: true, content: { items: [] } }, []],
    ['extra fields (not drift)', { success: true, extra: 1, content: { items: [{ id: 'b', price: 1, tags: [], more: true }] } }, []],
  ])('%s', (_, live, want) => {
    expect(drift(recorded, live)).toEqual(want);
  });

  it('reports only when the status is the recorded one, as a warning', () => {
    expect(structuralDrift.severity).toBe('warn');
    expect(structuralDrift.check(exchange({ recordedBody: recorded, body: { success: true }, status: 200 }))).toEqual(['drift from the recording: /content is missing']);
    expect(structuralDrift.check(exchange({ recordedStatus: 200, recordedBody: recorded, status: 400, body: {} }))).toEqual([]);
  });
});
