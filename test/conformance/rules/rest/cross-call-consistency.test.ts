import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { crossCallConsistency } from '../../../../conformance/rules/rest/cross-call-consistency.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, exchange, skipped } from './exchange.js';

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

describe('issue 38: cross-call-consistency, the bounds of a success and every check declared', () => {
  const judged = (given: ExchangeInput) => judge(crossCallConsistency, exchange(given));
  const body = { content: { variant: { id: 'var_2', n: 7 } } };
  it.each<[string, ExchangeInput, unknown]>([
    ['a 2XX at the top of the class is judged', variant(body, { status: 299 }), [error('/content/variant/id', '/content/variant/id is "var_2" but the variant the product list named is "var_1"')]],
    ['a 3XX is not', variant(body, { status: 300 }), skipped('a 300 carries no values to compare')],
    ['a 1XX is not', variant(body, { status: 199 }), skipped('a 199 carries no values to compare')],
    ['no check declared', { operationId: 'getVariant', body }, skipped('no consistency check declared for the steps judged')],
    ['the bound value not captured', variant(body, { values: {} }), skipped('the bound values were not captured')],
    [
      'a check without a description names its binding; a number compared as text',
      { operationId: 'getVariant', body, values: { n: '7', variant_id: 'var_9' }, consistency: [{ step: 's', pointer: '/content/variant/n', equals: 'n' }, { step: 's', pointer: '/content/variant/id', equals: 'variant_id' }, { step: 's', pointer: '/x', equals: 'not_captured' }] },
      [error('/content/variant/id', '/content/variant/id is "var_2" but the binding variant_id is "var_9"')],
    ],
  ])('%s', (_, given, want) => {
    expect(judged(given)).toEqual(want);
  });
});
