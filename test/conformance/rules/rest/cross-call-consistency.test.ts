import { describe, expect, it } from 'vitest';
import { crossCallConsistency } from '../../../../conformance/rules/rest/cross-call-consistency.js';
import { exchange } from './exchange.js';

const check = { step: 'get-variant', pointer: '/content/variant/id', equals: 'variant_id', description: 'the variant the product list named' };

describe('cross-call-consistency', () => {
  it.each([
    ['the variant the list named', { content: { variant: { id: 'var_1' } } }, []],
    ['another variant', { content: { variant: { id: 'var_2' } } }, ['/content/variant/id is "var_2" but the variant the product list named is "var_1"']],
    ['no variant at all', { content: {} }, ['/content/variant/id is undefined but the variant the product list named is "var_1"']],
  ])('%s', (_, body, want) => {
    expect(crossCallConsistency.check(exchange({ operationId: 'getVariant', body, values: { variant_id: 'var_1' }, consistency: [check] }))).toEqual(want);
  });

  it('does not judge error responses', () => {
    expect(crossCallConsistency.check(exchange({ operationId: 'getVariant', status: 404, body: {}, values: { variant_id: 'var_1' }, consistency: [check] }))).toEqual([]);
  });
});
