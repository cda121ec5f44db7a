// Loading recordings with their bindings, and building the request a step sends: rebased onto the
// target, bound values substituted where the bindings say, truncated bodies padded back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRequest, inputValues, substitutionsFor } from '../../conformance/rest/bindings.js';
import type { Har, HarEntry } from '../../conformance/rest/har.js';
import { loadScenario, loadScenarios } from '../../conformance/rest/load.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bindings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = 'http://rec.local:4010/api/v1/demo-store/storefront';

function entry(step: string, method: string, url: string, status: number, body: unknown, request: Partial<HarEntry['request']> = {}): HarEntry {
  return {
    startedDateTime: '2026-01-01T00:00:00.000Z',
    time: 1,
    request: { method, url: BASE + url, httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0, ...request },
    response: { status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'content-type', value: 'application/json' }], content: { size: 0, mimeType: 'application/json', text: JSON.stringify(body) }, redirectURL: '', headersSize: -1, bodySize: 0 },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
    comment: step,
  };
}

function write(name: string, entries: HarEntry[], bindings: string): void {
  const har: Har = { log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } };
  writeFileSync(path.join(dir, `${name}.har`), JSON.stringify(har));
  writeFileSync(path.join(dir, `${name}.bindings.yaml`), bindings);
}

write(
  'small',
  [
    entry('anon', 'POST', '/auth/anonymous', 200, { content: { access_token: 'REDACTED_access_token_1', user: { id: 'usr_REC1' } } }, { headers: [{ name: 'X-Api-Key', value: 'REDACTED_api_key_1' }] }),
    entry('list', 'GET', '/catalog/products?page=1&limit=2', 200, { content: { products: [{ id: 'prd_REC1' }], pagination: { total_pages: 3 } } }, {
      headers: [{ name: 'Authorization', value: 'Bearer REDACTED_access_token_1' }],
    }),
    entry('past-end', 'GET', '/catalog/products?page=4&limit=4', 200, {}, { headers: [{ name: 'Authorization', value: 'Bearer REDACTED_access_token_1' }] }),
    entry('similar', 'GET', '/pos/catalog/products/similar?product_id=prd_REC1', 200, {}, { headers: [{ name: 'Authorization', value: 'Bearer REDACTED_access_token_1' }] }),
    entry('customer', 'POST', '/customers', 201, {}, {
      headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Accept-Encoding', value: 'gzip' }],
      postData: { mimeType: 'application/json', text: JSON.stringify({ note: 'for usr_REC1', address: { city: 'x' } }) },
    }),
    entry('big', 'POST', '/customers', 413, {}, { bodySize: 1000, postData: { mimeType: 'application/json', text: '{"padding":"xxxx', _truncated: true, _padWith: 'x' } }),
  ],
  `inputs:
  - name: api_key
    replaces: REDACTED_api_key_1
    required: true
captures:
  - { name: access_token, step: anon, pointer: /content/access_token }
  - { name: user_id, step: anon, pointer: /content/user/id }
  - { name: product_id, step: list, pointer: /content/products/0/id }
  - name: past_end_page
    step: list
    pointer: /content/pagination/total_pages
    add: 1
    into: [{ step: past-end, in: query, name: page }]
`,
);

describe('loading', () => {
  const s = loadScenario(dir, 'small');

  it('resolves operations, recorded values and dependencies', () => {
    expect(s.steps.map((st) => st.operation.operationId)).toEqual(['createAnonymousUser', 'listProducts', 'listProducts', 'listSimilarProducts', 'createCustomer', 'createCustomer']);
    expect(s.captures.find((c) => c.name === 'past_end_page')!.recordedValue).toBe('4');
    expect(s.steps.map((st) => st.needs)).toEqual([[], [0], [0, 1], [0, 1], [0], []]);
  });

  it('loads the committed scenarios', () => {
    expect(loadScenarios().map((x) => x.name)).toEqual(['browse-catalog', 'customer', 'negative', 'pos']);
  });

  it.each([
    ['an unknown step', 'captures:\n  - { name: t, step: nope, pointer: /content/access_token }\n', /small-bad\.bindings\.yaml: capture t names step "nope", which .* does not have/],
    ['a pointer to nothing', 'captures:\n  - { name: t, step: anon, pointer: /content/nothing }\n', /capture t: \/content\/nothing is not a value in the recorded response of step anon; fix the pointer/],
    ['a short value without into', 'captures:\n  - { name: p, step: list, pointer: /content/pagination/total_pages }\n', /too short to substitute wherever it occurs; add "into"/],
    ['an unknown binding in a check', 'consistency:\n  - { step: list, pointer: /x, equals: ghost }\n', /equals "ghost" is neither an input nor a capture/],
  ])('explains %s', (_, bindings, message) => {
    write('small-bad', [entry('anon', 'POST', '/auth/anonymous', 200, { content: { access_token: 'T' } }), entry('list', 'GET', '/catalog/products', 200, { content: { pagination: { total_pages: 3 } } })], bindings);
    expect(() => loadScenario(dir, 'small-bad')).toThrow(message);
  });
});

describe('building requests', () => {
  const s = loadScenario(dir, 'small');
  const inputs = inputValues(s, { api_key: 'sk_live_key' });
  const live = new Map([
    ['access_token', 'tok_LIVE'],
    ['user_id', 'usr_LIVE'],
    ['product_id', 'prd_LIVE'],
    ['past_end_page', '7'],
  ]);
  const build = (i: number) => buildRequest(s.steps[i], substitutionsFor(s.steps[i], s, inputs, live), { baseUrl: 'https://api.example.com/', storeId: 'store 2' });

  it('rebases onto the target and its store, and fills inputs', () => {
    const r = build(0);
    expect(r.url).toBe('https://api.example.com/api/v1/store%202/storefront/auth/anonymous');
    expect(r.headers['x-api-key']).toBe('sk_live_key');
  });

  it('substitutes captures in headers and query', () => {
    const r = build(3);
    expect(r.headers.authorization).toBe('Bearer tok_LIVE');
    expect(new URL(r.url).searchParams.get('product_id')).toBe('prd_LIVE');
  });

  it('puts a targeted capture only where it is declared', () => {
    const q = new URL(build(2).url).searchParams;
    expect(q.get('page')).toBe('7');
    expect(q.get('limit')).toBe('4');
  });

  it('substitutes inside JSON bodies and drops transport headers', () => {
    const r = build(4);
    expect(JSON.parse(r.body!)).toEqual({ note: 'for usr_LIVE', address: { city: 'x' } });
    expect(r.headers['accept-encoding']).toBeUndefined();
  });

  it('pads a truncated body back to its recorded size', () => {
    const r = build(5);
    expect(Buffer.byteLength(r.body!)).toBe(1000);
    expect(r.body!.startsWith('{"padding":"xxxx')).toBe(true);
  });

  it('requires required inputs', () => {
    expect(() => inputValues(s, {})).toThrow(/input api_key is required/);
  });
});
