import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { generatedAccepted } from '../../../../conformance/rules/rest/generated-accepted.js';
import type { GeneratedCase } from '../../../../conformance/rules/observations/rest.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, errorEnvelope, exchange, skipped } from './exchange.js';

const valid = (more: Partial<GeneratedCase> = {}): GeneratedCase => ({ kind: 'valid', label: 'valid request', expect: 'accepted', unknownIds: false, designed: false, ...more });

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  ['a valid request answered 200', { given: { generated: valid(), status: 200 }, want: [] }],
  ['a valid create answered 201', { given: { operationId: 'createCustomer', generated: valid(), status: 201 }, want: [] }],
  [
    'a valid request refused as invalid, with the server\'s own reason',
    { given: { path: '/catalog/products?limit=500', generated: valid({ label: 'valid: limit=500' }), status: 400, body: errorEnvelope }, want: ['GET /catalog/products?limit=500 is valid by the spec (valid: limit=500) but was answered 400: "Invalid request."'] },
  ],
  ['a 5XX', { given: { generated: valid(), status: 500, body: 'oops' }, want: ['GET /catalog/products is valid by the spec (valid request) but was answered 500'] }],
  ['404 for ids the target was not seen to hold (documented)', { given: { operationId: 'getPosCart', path: '/pos/carts/x', generated: valid({ unknownIds: true }), status: 404 }, want: [] }],
  ['404 for ids the target accepted before', { given: { operationId: 'getPosCart', path: '/pos/carts/crt_1', generated: valid(), status: 404 }, want: ['GET /pos/carts/crt_1 is valid by the spec (valid request) but was answered 404'] }],
  ['404 where the spec documents none', { given: { operationId: 'listCountries', generated: valid({ unknownIds: true }), status: 404 }, want: ['GET /common/countries is valid by the spec (valid request) but was answered 404'] }],
  ['an invalid case (not this rule\'s)', { given: { generated: valid({ kind: 'invalid', expect: 400 }), status: 200 }, want: 'skipped' }],
  ['a replayed exchange', { given: { status: 200 }, want: 'skipped' }],
];

describe('generated-accepted', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(generatedAccepted, exchange(given))).toEqual(want);
  });
});

describe('issue 38: generated-accepted, both ends of a success and each condition of a correct 404', () => {
  const judged = (given: ExchangeInput) => judge(generatedAccepted, exchange(given));
  it.each<[string, ExchangeInput, unknown]>([
    ['answered 299', { generated: valid(), status: 299 }, []],
    ['answered 300', { generated: valid(), status: 300 }, [error('status', 'GET /catalog/products is valid by the spec (valid request) but was answered 300')]],
    ['answered 199', { generated: valid(), status: 199 }, [error('status', 'GET /catalog/products is valid by the spec (valid request) but was answered 199')]],
    ['unknown ids answered 400 (only a 404 says the ids are unknown)', { operationId: 'getPosCart', path: '/pos/carts/x', generated: valid({ unknownIds: true }), status: 400 }, [error('status', 'GET /pos/carts/x is valid by the spec (valid request) but was answered 400')]],
    ['a message that is not text is not quoted', { generated: valid(), status: 400, body: { success: false, message: 42 } }, [error('status', 'GET /catalog/products is valid by the spec (valid request) but was answered 400')]],
    [
      'the server\'s reason, cut at 160 characters',
      { generated: valid(), status: 400, body: { success: false, message: `${'a'.repeat(160)}TAIL` } },
      [error('status', `GET /catalog/products is valid by the spec (valid request) but was answered 400: "${'a'.repeat(160)}"`)],
    ],
    ['no generated case', { status: 500 }, skipped('no generated cases (run with --generate N)')],
    ['an invalid case', { generated: valid({ kind: 'invalid', expect: 400 }), status: 500 }, skipped('not a valid generated case')],
    ['a security case', { generated: valid({ kind: 'security', expect: 401 }), status: 500 }, skipped('not a valid generated case')],
  ])('%s', (_, given, want) => {
    expect(judged(given)).toEqual(want);
  });
});
