import { describe, expect, it } from 'vitest';
import { crossCallConsistency } from '../../../../conformance/rules/rest/cross-call-consistency.js';
import { view, type View } from '../view.js';
import { exchange, type ExchangeInput } from './exchange.js';

const check = { step: 'get-variant', pointer: '/content/variant/id', equals: 'variant_id', description: 'the variant the product list named' };
const variant = (body: unknown, more: ExchangeInput = {}): ExchangeInput => ({ operationId: 'getVariant', body, values: { variant_id: 'var_1' }, consistency: [check], ...more });

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  ['the variant the list named', { given: variant({ content: { variant: { id: 'var_1' } } }), want: [] }],
  ['another variant', { given: variant({ content: { variant: { id: 'var_2' } } }), want: ['/content/variant/id is "var_2" but the variant the product list named is "var_1"'] }],
  ['no variant at all', { given: variant({ content: {} }), want: ['/content/variant/id is undefined but the variant the product list named is "var_1"'] }],
  ['an error response (not judged)', { given: variant({}, { status: 404 }), want: 'skipped' }],
  ['no check declared for the step', { given: { operationId: 'getVariant', body: { content: {} } }, want: 'skipped' }],
];

describe('cross-call-consistency', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(crossCallConsistency, exchange(given))).toEqual(want);
  });
});
