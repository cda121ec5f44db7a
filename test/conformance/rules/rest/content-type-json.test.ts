import { describe, expect, it } from 'vitest';
import { contentTypeJson } from '../../../../conformance/rules/rest/content-type-json.js';
import { exchange } from './exchange.js';

describe('content-type-json', () => {
  it.each([
    ['application/json', 0],
    ['application/json; charset=utf-8', 0],
    ['application/problem+json', 0],
    ['text/html; charset=utf-8', 1],
    ['text/plain', 1],
    ['application/jsonp', 1],
  ])('%s -> %i problem(s)', (contentType, want) => {
    expect(contentTypeJson.check(exchange({ contentType }))).toHaveLength(want);
  });

  it('reports a missing Content-Type', () => {
    const ex = exchange({});
    ex.live.contentType = undefined;
    expect(contentTypeJson.check(ex)).toEqual(['the response has no Content-Type (the contract answers application/json)']);
  });
});
