import { describe, expect, it } from 'vitest';
import { contentTypeJson } from '../../../../conformance/rules/rest/content-type-json.js';
import { view, type View } from '../view.js';
import { exchange, type ExchangeInput } from './exchange.js';

const cases: Array<[string, { given: ExchangeInput; want: View }]> = [
  ['application/json', { given: { contentType: 'application/json' }, want: [] }],
  ['application/json; charset=utf-8', { given: { contentType: 'application/json; charset=utf-8' }, want: [] }],
  ['application/problem+json', { given: { contentType: 'application/problem+json' }, want: [] }],
  ['text/html; charset=utf-8', { given: { contentType: 'text/html; charset=utf-8' }, want: ['Content-Type is "text/html; charset=utf-8", not application/json'] }],
  ['text/plain', { given: { contentType: 'text/plain' }, want: ['Content-Type is "text/plain", not application/json'] }],
  ['application/jsonp', { given: { contentType: 'application/jsonp' }, want: ['Content-Type is "application/jsonp", not application/json'] }],
  ['a missing Content-Type', { given: { contentType: null }, want: ['the response has no Content-Type (the contract answers application/json)'] }],
  ['a 204 (no body)', { given: { status: 204 }, want: 'skipped' }],
];

describe('content-type-json', () => {
  it.each(cases)('%s', (_, { given, want }) => {
    expect(view(contentTypeJson, exchange(given))).toEqual(want);
  });
});
