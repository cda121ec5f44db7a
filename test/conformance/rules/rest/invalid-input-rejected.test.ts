import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { invalidInputRejected } from '../../../../conformance/rules/rest/invalid-input-rejected.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, exchange, skipped } from './exchange.js';

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

describe('issue 38: invalid-input-rejected, every rejection the recording saw and both ends of a 4XX', () => {
  const judged = (given: ExchangeInput) => judge(invalidInputRejected, exchange(given));
  it.each<[string, ExchangeInput, unknown]>([
    ['415 answered 201', { operationId: 'createCustomer', recordedStatus: 415, status: 201 }, [error('status', 'POST /customers sends a body that is not JSON (the recording had 415) but was answered 201')]],
    ['413 rejected with 499', { operationId: 'createCustomer', recordedStatus: 413, status: 499 }, []],
    ['400 answered 399', { recordedStatus: 400, status: 399 }, [error('status', 'GET /catalog/products sends invalid input (the recording had 400) but was answered 399')]],
    ['400 answered 500', { recordedStatus: 400, status: 500 }, [error('status', 'GET /catalog/products sends invalid input (the recording had 400) but was answered 500')]],
    ['recorded 401 (auth-enforced judges it)', { recordedStatus: 401, status: 200 }, skipped('the recording did not reject this request')],
    ['recorded 422 (not a rejection the contract names)', { recordedStatus: 422, status: 200 }, skipped('the recording did not reject this request')],
  ])('%s', (_, given, want) => {
    expect(judged(given)).toEqual(want);
  });
});
