import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { generatedRefused } from '../../../../conformance/rules/rest/generated-refused.js';
import type { GeneratedCase } from '../../../../conformance/rules/observations/rest.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, exchange, skipped, warning } from './exchange.js';

const invalid = (more: Partial<GeneratedCase> = {}): GeneratedCase => ({ kind: 'invalid', label: 'page: below the minimum 1', expect: 400, unknownIds: false, designed: false, ...more });
const security = (label: string): GeneratedCase => ({ kind: 'security', label, expect: 401, unknownIds: false, designed: false });

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  ['refused with 400', { given: { path: '/catalog/products?page=0', generated: invalid(), status: 400 }, want: [] }],
  ['refused with 422 (any 4XX)', { given: { path: '/catalog/products?page=0', generated: invalid(), status: 422 }, want: [] }],
  [
    'accepted',
    { given: { path: '/catalog/products?page=0', generated: invalid(), status: 200 }, want: ['GET /catalog/products?page=0 (page: below the minimum 1) breaks the spec and must be refused with a 4XX (400 expected) but was answered 200'] },
  ],
  [
    'a designed constraint accepted: advice',
    {
      given: { operationId: 'createCustomer', generated: invalid({ label: 'body: oversized (2 MiB)', expect: 413, designed: true }), status: 201 },
      want: ['warning: POST /customers (body: oversized (2 MiB)) breaks the spec and must be refused with a 4XX (413 expected) but was answered 201; the constraint is designed here, not stated by the platform'],
    },
  ],
  [
    'a designed constraint answered 5XX: still a failure',
    { given: { operationId: 'createCustomer', generated: invalid({ label: 'body: sent as text/plain', expect: 415, designed: true }), status: 500 }, want: ['POST /customers (body: sent as text/plain) breaks the spec and must be refused with a 4XX (415 expected) but was answered 500'] },
  ],
  ['no credentials refused with 401', { given: { generated: security('no credentials'), status: 401 }, want: [] }],
  ['a never-issued token refused with 403', { given: { generated: security('a bearer token the server never issued'), status: 403 }, want: [] }],
  [
    'the API key accepted instead of a bearer token',
    { given: { generated: security('the store API key instead of a bearer token'), status: 200 }, want: ['GET /catalog/products (the store API key instead of a bearer token) must be refused with 401 or 403 but was answered 200'] },
  ],
  ['a valid case (not this rule\'s)', { given: { generated: { ...invalid(), kind: 'valid', expect: 'accepted' }, status: 200 }, want: 'skipped' }],
  ['a replayed exchange', { given: { status: 400 }, want: 'skipped' }],
];

describe('generated-refused', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(generatedRefused, exchange(given))).toEqual(want);
  });
});

describe('issue 38: generated-refused, both ends of a refusal and what is advice', () => {
  const judged = (given: ExchangeInput) => judge(generatedRefused, exchange(given));
  const page0 = '/catalog/products?page=0';
  const must = (status: number, label = 'page: below the minimum 1', expect = 400) => `GET ${page0} (${label}) breaks the spec and must be refused with a 4XX (${expect} expected) but was answered ${status}`;
  it.each<[string, ExchangeInput, unknown]>([
    ['refused with 499', { path: page0, generated: invalid(), status: 499 }, []],
    ['answered 399', { path: page0, generated: invalid(), status: 399 }, [error('status', must(399))]],
    ['answered 500', { path: page0, generated: invalid(), status: 500 }, [error('status', must(500))]],
    ['a designed constraint answered 399: advice', { path: page0, generated: invalid({ designed: true }), status: 399 }, [warning('status', `${must(399)}; the constraint is designed here, not stated by the platform`)]],
    ['a designed constraint answered 501', { path: page0, generated: invalid({ designed: true }), status: 501 }, [error('status', must(501))]],
    ['no credentials answered 400', { generated: security('no credentials'), status: 400 }, [error('credentials', 'GET /catalog/products (no credentials) must be refused with 401 or 403 but was answered 400')]],
    ['no credentials answered 402', { generated: security('no credentials'), status: 402 }, [error('credentials', 'GET /catalog/products (no credentials) must be refused with 401 or 403 but was answered 402')]],
    ['no credentials answered 404', { generated: security('no credentials'), status: 404 }, [error('credentials', 'GET /catalog/products (no credentials) must be refused with 401 or 403 but was answered 404')]],
    ['no generated case', { status: 200 }, skipped('no generated cases (run with --generate N)')],
    ['a valid case', { generated: { ...invalid(), kind: 'valid', expect: 'accepted' }, status: 400 }, skipped('not an invalid generated case')],
  ])('%s', (_, given, want) => {
    expect(judged(given)).toEqual(want);
  });
});
