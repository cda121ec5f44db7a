import { describe, expect, it } from 'vitest';
import { judge } from '../../../../conformance/rules/run.js';
import { contentTypeJson } from '../../../../conformance/rules/rest/content-type-json.js';
import { view, type View } from '../view.js';
import { type ExchangeInput, error, exchange, skipped } from './exchange.js';

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

describe('issue 38: content-type-json, every JSON media type and none other', () => {
  it.each([
    'application/json',
    'Application/JSON',
    'application/json;charset=utf-8',
    'application/json ; charset=utf-8',
    'application/json\t',
    'application/vnd.api+json',
    'application/vnd.a-b_c+json; charset=utf-8',
    'application/x+json',
  ])('%s is JSON', (contentType) => {
    expect(judge(contentTypeJson, exchange({ contentType }))).toEqual([]);
  });

  it.each(['text/application/json', ' application/json', 'application/json-seq', 'application/jsonx; charset=utf-8', 'application/+json', 'application/a b+json', 'application/a/b+json', 'application/json+xml', 'application/xjson'])('%s is not', (contentType) => {
    expect(judge(contentTypeJson, exchange({ contentType }))).toEqual([error('Content-Type', `Content-Type is "${contentType}", not application/json`)]);
  });

  it('no Content-Type, and the statuses without a body', () => {
    expect(judge(contentTypeJson, exchange({ contentType: null }))).toEqual([error('Content-Type', 'the response has no Content-Type (the contract answers application/json)')]);
    expect(judge(contentTypeJson, exchange({ status: 204, contentType: null }))).toEqual(skipped('a 204 has no body'));
    expect(judge(contentTypeJson, exchange({ status: 304, contentType: null }))).toEqual(skipped('a 304 has no body'));
    expect(judge(contentTypeJson, exchange({ status: 205, contentType: null }))).toEqual([error('Content-Type', 'the response has no Content-Type (the contract answers application/json)')]);
  });
});
