import { describe, expect, it } from 'vitest';
import { invalidInputRejected } from '../../../../conformance/rules/rest/invalid-input-rejected.js';
import { exchange } from './exchange.js';

describe('invalid-input-rejected', () => {
  it.each([
    ['page 0 rejected with 400', { recordedStatus: 400, status: 400 }, []],
    ['page 0 rejected with another 4XX', { recordedStatus: 400, status: 422 }, []],
    ['page 0 accepted', { path: '/catalog/products?page=0', recordedStatus: 400, status: 200 }, ['GET /catalog/products?page=0 sends invalid input (the recording had 400) but was answered 200']],
    ['an unknown id found', { operationId: 'getPosCart' as const, path: '/pos/carts/crt_x', recordedStatus: 404, status: 200 }, ['GET /pos/carts/crt_x sends an unknown id (the recording had 404) but was answered 200']],
    ['an oversized body crashing the server', { operationId: 'createCustomer' as const, recordedStatus: 413, status: 500 }, ['POST /customers sends an oversized body (the recording had 413) but was answered 500']],
    ['a valid request (not this rule)', { recordedStatus: 200, status: 500 }, []],
  ])('%s', (_, given, want) => {
    expect(invalidInputRejected.check(exchange(given))).toEqual(want);
  });
});
