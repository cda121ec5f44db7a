// Every storefront endpoint over real HTTP on its real path, with and without credentials; answers
// are checked against the documented status, schema and (for the default) the first named example.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { API_KEY, ENDPOINTS, apiKey, bearer, call, json, loadContract, startMock, storefront, type Contract } from './helpers.js';

let server: MockServer;
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
  server = await startMock();
});
afterAll(() => server?.close());

function bodyFor(e: (typeof ENDPOINTS)[number]) {
  return e.body ? JSON.stringify(contract.requestExample(e.method, e.template)) : undefined;
}

describe('the endpoint table', () => {
  it('covers every operation of the storefront document', () => {
    const inSpec = Object.entries<any>(contract.doc.paths).flatMap(([p, item]) =>
      ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(ENDPOINTS.map((e) => `${e.method} ${e.template}`).sort()).toEqual(inSpec.sort());
  });
});

describe.each(ENDPOINTS)('$method $template', (e) => {
  const creds = e.auth === 'apiKey' ? apiKey() : bearer();

  it('answers the documented success with the first named example', async () => {
    const reply = await call(storefront(server), e.method, e.path, { headers: { ...creds, ...(e.body ? json : {}) }, body: bodyFor(e) });
    expect(reply.status).toBe(e.status);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(contract.check(e.method, e.template, e.status, reply.json)).toEqual([]);
    expect(reply.json).toEqual(contract.firstExample(e.method, e.template, e.status));
  });

  it('works for any store_id', async () => {
    const reply = await call(storefront(server, 'another-store_42'), e.method, e.path, { headers: { ...creds, ...(e.body ? json : {}) }, body: bodyFor(e) });
    expect(reply.status).toBe(e.status);
  });

  it.each<[string, Record<string, string>]>([
    ['no credentials', {}],
    ['an empty credential', e.auth === 'apiKey' ? { 'x-api-key': '' } : { authorization: '' }],
    ['a malformed credential', e.auth === 'apiKey' ? { 'x-api-key': 'has spaces in it' } : { authorization: 'Basic dXNlcjpwYXNz' }],
    ['the other scheme', e.auth === 'apiKey' ? bearer() : apiKey()],
  ])('rejects %s with the 401 envelope', async (_name, headers) => {
    const reply = await call(storefront(server), e.method, e.path, { headers: { ...headers, ...(e.body ? json : {}) }, body: bodyFor(e) });
    expect(reply.status).toBe(401);
    expect(contract.check(e.method, e.template, 401, reply.json)).toEqual([]);
    expect(reply.json.success).toBe(false);
    expect(reply.json.content.error.code).toBe('unauthorized');
    expect(reply.json.message).toMatch(e.auth === 'apiKey' ? /X-Api-Key/ : /Authorization|Bearer/);
    // The credential itself is never echoed back.
    expect(reply.text).not.toContain(API_KEY);
  });
});
