// Every 401 of the storefront API carries a WWW-Authenticate challenge (RFC 9110 15.5.2, register SF-030),
// over real HTTP on loopback: each operation without credentials, with a malformed one, and with a
// well-formed one the server refuses (strict auth, one accepted API key). The value matches the header
// the spec declares on that operation's 401: `Bearer` or `ApiKey header="X-Api-Key"`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { call, ENDPOINTS, json, loadContract, startMock, storefront, type Contract } from './helpers.js';

let server: MockServer;
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
  server = await startMock({ strictAuth: true, apiKeys: ['sk_the_only_key'] });
});
afterAll(() => server?.close());

const credentials: Record<'apiKey' | 'bearer', Array<[string, Record<string, string>]>> = {
  apiKey: [
    ['no key', {}],
    ['a malformed key', { 'x-api-key': 'has spaces in it' }],
    ['a key the server does not know', { 'x-api-key': 'sk_someone_else' }],
  ],
  bearer: [
    ['no token', {}],
    ['a malformed Authorization', { authorization: 'Token abc' }],
    ['a token the server did not issue', { authorization: 'Bearer not.issued.here' }],
  ],
};

const cases = ENDPOINTS.flatMap((e) => credentials[e.auth].map(([what, headers]) => [e.name, what, e, headers] as const));

describe('every 401 of the storefront API carries WWW-Authenticate', () => {
  it('every 401 in the spec declares the header', () => {
    for (const e of ENDPOINTS) {
      const op = contract.operation(e.method, e.template);
      expect(op.responses['401']?.headers?.['WWW-Authenticate'], `${e.name} 401`).toBeDefined();
    }
  });

  it.each(cases)('%s with %s', async (_name, _what, e, headers) => {
    const body = e.body ? JSON.stringify(contract.requestExample(e.method, e.template)) : undefined;
    const reply = await call(storefront(server), e.method, e.path, { headers: { ...headers, ...(body ? json : {}) }, body });
    expect(reply.status, JSON.stringify(reply.json)).toBe(401);
    const challenge = reply.headers['www-authenticate'];
    expect(challenge, `${e.name}: 401 without WWW-Authenticate`).toBeTypeOf('string');
    const declared = contract.operation(e.method, e.template).responses['401'].headers['WWW-Authenticate'].schema;
    expect(challenge).toMatch(new RegExp(declared.pattern, 'u'));
    // RFC 6750 3.1: a token sent and refused is `invalid_token`, a malformed header `invalid_request`.
    const bearer = headers.authorization === undefined ? 'Bearer' : headers.authorization.startsWith('Bearer ') ? 'Bearer error="invalid_token"' : 'Bearer error="invalid_request"';
    expect(challenge).toBe(e.auth === 'bearer' ? bearer : 'ApiKey header="X-Api-Key"');
  });
});
