// A few thousand malformed or hostile requests over raw sockets (bad JSON, huge bodies, odd
// encodings, invalid percent-encoding, `..` tricks, header injection, random methods). The server
// must answer every one without a 5XX, never leak a stack trace, and still serve correctly after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { API_KEY, TOKEN, bearer, call, loadContract, rawExchange, startMock, storefront } from './helpers.js';

let server: MockServer;

beforeAll(async () => {
  // Prism loads synchronously on the first request that needs it (~1 s of CPU, more on a busy machine),
  // holding every other socket meanwhile: load it before the barrage, as `npm start` does for --dynamic.
  server = await startMock({ maxBodyBytes: 64 * 1024, preloadPrism: true });
});
afterAll(() => server?.close());

// Deterministic pseudo-random choices so a failure reproduces.
let seed = 20240607;
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const pick = <T>(list: T[]): T => list[rand(list.length)];

const S = '/api/v1/demo-store/storefront';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'FOO', 'get', 'G\x00T', 'PROPFIND', 'CONNECT'];
const PATHS = [
  `${S}/catalog/products`,
  `${S}/catalog/products?page=0&limit=abc`,
  `${S}/catalog/products?sort_by=%7B%22a%22`,
  `${S}/catalog/products?page=%`,
  `${S}/catalog/products?page=%zz&limit=%E0%A4%A`,
  `${S}/orders`,
  `${S}/orders?user_id=${'u'.repeat(4000)}`,
  `${S}/pos/carts/%`,
  `${S}/pos/carts/%C0%AF`,
  `${S}/pos/carts/%00`,
  `${S}/pos/carts/..%2f..%2f..%2fetc%2fpasswd`,
  `${S}/../../../etc/passwd`,
  `${S}/customers`,
  `${S}/shipping/fulfillment-options`,
  `${S}/pos/auth/login/phone?debug_mode=%FF`,
  `${S}/auth/anonymous`,
  '/api/v1/%zz/storefront/common/countries',
  '/api/v1//storefront/common/countries',
  '//api/v1/x/storefront//common//countries',
  '/api/v1/x/admin/webhooks',
  '/docs/../../etc/passwd',
  '/docs/%2e%2e/%2e%2e/etc/passwd',
  '/docs/..%5c..%5cpackage.json',
  '/docs/%',
  'http://evil.example/api/v1/x/storefront/common/countries',
  '*',
  `/${'a/'.repeat(3000)}`,
  '/\x7f\x01',
  '/caf\xe9',
  `${S}/common/countries?__code=999`,
  `${S}/common/countries#fragment`,
];
const HEADER_SETS: string[][] = [
  [`authorization: Bearer ${TOKEN}`],
  [`x-api-key: ${API_KEY}`],
  ['authorization: Bearer'],
  ['authorization: Bearer \xff\xfe'],
  [`authorization: Bearer ${'t'.repeat(9000)}`],
  ['authorization: Basic Og=='],
  ['x-api-key: \xff\xfe key'],
  [`authorization: Bearer ${TOKEN}`, 'prefer: code=99999'],
  [`authorization: Bearer ${TOKEN}`, `prefer: example=${'../'.repeat(20)}`],
  [`authorization: Bearer ${TOKEN}`, 'prefer: code=404'],
  [`authorization: Bearer ${TOKEN}`, 'prefer: ,,,;;;==='],
  [`authorization: Bearer ${TOKEN}`, 'accept: text/html;q=0, */*;q=0'],
  [`authorization: Bearer ${TOKEN}`, 'x-customer-group-id: \xc3\x28'],
  [`authorization: Bearer ${TOKEN}`, 'x-injected: a\rb'],
  [`authorization: Bearer ${TOKEN}`, 'x-injected: a\nset-cookie: pwned=1'],
  [`authorization: Bearer ${TOKEN}`, 'x-injected: a\x00b'],
  [`authorization: Bearer ${TOKEN}`, 'bad header name: x'],
  [`authorization: Bearer ${TOKEN}`, `x-huge: ${'h'.repeat(20000)}`],
  [`authorization: Bearer ${TOKEN}`, 'content-length: abc'],
  [`authorization: Bearer ${TOKEN}`, 'content-length: 1', 'content-length: 2'],
  [`authorization: Bearer ${TOKEN}`, 'transfer-encoding: chunked', 'content-length: 3'],
  [`authorization: Bearer ${TOKEN}`, 'content-type: application/json; charset=utf-16'],
  [`authorization: Bearer ${TOKEN}`, 'content-type: multipart/form-data; boundary='],
  [`authorization: Bearer ${TOKEN}`, 'content-type: '],
  [`authorization: Bearer ${TOKEN}`, 'content-type: application/json'],
  [`x-api-key: ${API_KEY}`, 'content-type: application/json'],
];
const BODIES: Array<string | Buffer> = [
  '',
  '{',
  '{"business":',
  'null',
  '"just a string"',
  '12345678901234567890e999999',
  '[]',
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
  '{"delivery_pincode":{"$gt":""},"cart_id":["x"]}',
  '\ufeff{"a":1}',
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
  '['.repeat(50_000),
  `{"a":"${'x'.repeat(70 * 1024)}"}`,
  JSON.stringify({ address: { first_name: '<script>alert(1)</script>' }, business: { name: "'; DROP TABLE x; --" } }),
];

type Kind = 'plain' | 'chunked' | 'bad-chunk' | 'huge';

function build(i: number): Buffer {
  const method = pick(METHODS);
  const target = pick(PATHS);
  const headers = pick(HEADER_SETS);
  let body: Buffer = Buffer.from(pick(BODIES) as any, 'latin1');
  const kind: Kind = pick(['plain', 'plain', 'plain', 'chunked', 'bad-chunk', ...(i % 50 === 0 ? (['huge'] as Kind[]) : [])]);
  if (kind === 'huge') body = Buffer.alloc(2 * 1024 * 1024, 0x61);
  const hasLengthHeader = headers.some((h) => /^(content-length|transfer-encoding):/i.test(h));
  const lines = [`${method} ${target} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close', ...headers];
  let payload: Buffer = body;
  if (!hasLengthHeader) {
    if (kind === 'chunked') {
      lines.push('transfer-encoding: chunked');
      payload = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    } else if (kind === 'bad-chunk') {
      lines.push('transfer-encoding: chunked');
      payload = Buffer.concat([Buffer.from('zz\r\n'), body, Buffer.from('\r\n')]);
    } else {
      lines.push(`content-length: ${body.length}`);
    }
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

const TOTAL = 3000;
const CONCURRENCY = 32;

describe('hostile traffic', () => {
  const statuses = new Map<string, number>();
  const fiveXX: string[] = [];
  const leaks: string[] = [];
  const nonEnvelope: string[] = [];
  const noAnswer: string[] = [];

  it(`survives ${TOTAL} malformed or hostile requests without a 5XX`, async () => {
    const requests = Array.from({ length: TOTAL }, (_, i) => build(i));
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const i = next++;
        // Generous: the point is that every request gets an answer, not how fast on a loaded machine.
        const reply = await rawExchange(server.port, requests[i], 15_000);
        const status = /^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 'none';
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const sample = requests[i].subarray(0, 120).toString('latin1');
        if (status.startsWith('5')) fiveXX.push(sample);
        if (status === 'none') noAnswer.push(sample);
        if (/\n\s+at .+:\d+:\d+|Error: .*\n/.test(reply)) leaks.push(sample);
        if (/^[4]/.test(status) && !/^HEAD /.test(sample)) {
          // Only the first response counts: after it, a broken body can make node's parser add a 400.
          const headEnd = reply.indexOf('\r\n\r\n');
          const length = Number(/content-length: (\d+)/i.exec(reply.slice(0, headEnd))?.[1] ?? -1);
          const body = reply.slice(headEnd + 4, length >= 0 ? headEnd + 4 + length : undefined);
          try {
            if (JSON.parse(body).success !== false) nonEnvelope.push(sample);
          } catch {
            nonEnvelope.push(sample);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    expect(fiveXX).toEqual([]);
    expect(leaks).toEqual([]);
    expect(nonEnvelope).toEqual([]);
    // Every request got an HTTP answer (a dropped connection would show up as `none`).
    expect(noAnswer).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(TOTAL);
    // The mix really was hostile: most answers are 4XX.
    const fourXX = [...statuses].filter(([s]) => s.startsWith('4')).reduce((a, [, n]) => a + n, 0);
    expect(fourXX).toBeGreaterThan(TOTAL / 2);
  });

  it('still answers correctly afterwards', async () => {
    const contract = await loadContract();
    const reply = await call(storefront(server), 'GET', '/catalog/products?page=1', { headers: bearer() });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual(contract.firstExample('GET', '/catalog/products', 200));
    const denied = await call(storefront(server), 'GET', '/catalog/products');
    expect(denied.status).toBe(401);
  });

  it('has not been polluted by __proto__ bodies', () => {
    expect(({} as any).polluted).toBeUndefined();
  });
});
