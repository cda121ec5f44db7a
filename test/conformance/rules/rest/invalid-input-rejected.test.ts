import { describe, expect, it } from 'vitest';
import { invalidInputRejected } from '../../../../conformance/rules/rest/invalid-input-rejected.js';
import { view, type View } from '../view.js';
import { exchange, type ExchangeInput } from './exchange.js';

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  ['page 0 rejected with 400', { given: { recordedStatus: 400, status: 400 }, want: [] }],
  ['page 0 rejected with another 4XX', { given: { recordedStatus: 400, status: 422 }, want: [] }],
  ['page 0 accepted', { given: { path: '/catalog/products?page=0', recordedStatus: 400, status: 200 }, want: ['GET /catalog/products?page=0 sends invalid input (the recording had 400) but was answered 200'] }],
  ['an unknown id found', { given: { operationId: 'getPosCart', path: '/pos/carts/crt_x', recordedStatus: 404, status: 200 }, want: ['GET /pos/carts/crt_x sends an unknown id (the recording had 404) but was answered 200'] }],
  ['an oversized body crashing the server', { given: { operationId: 'createCustomer', recordedStatus: 413, status: 500 }, want: ['POST /customers sends an oversized body (the recording had 413) but was answered 500'] }],
  ['a valid request (not this rule: skipped)', { given: { recordedStatus: 200, status: 500 }, want: 'skipped' }],
];

describe('invalid-input-rejected', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(invalidInputRejected, exchange(given))).toEqual(want);
  });
});
