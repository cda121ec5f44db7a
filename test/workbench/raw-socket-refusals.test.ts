// The answers the workbench's node server writes on the raw socket, where node:http gives no response
// object (workbench/adapters/node-http.ts: CONNECT, a request its parser refuses, oversized headers), and the
// 417 for an unknown `Expect`: over a real socket, the status line, EVERY header (a 405 without `Allow`
// breaks RFC 9110 15.5.6), the envelope, and the connection closed after the answer.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { startMock } from '../mock/helpers.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMock();
});
afterAll(async () => {
  await server?.close();
});

interface RawAnswer {
  statusLine: string;
  /** Header names lower-cased, in order, repeated names kept. */
  headers: Array<[string, string]>;
  body: string;
  /** The server closed the connection after answering. */
  closed: boolean;
}

/**
 * Sends bytes on a fresh connection and reads until the server closes it. No answer at all (the server
 * closing without a byte, or keeping the socket open past the limit) is a failure, never an empty pass.
 */
function exchange(bytes: string, limitMs = 15_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${limitMs} ms; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`));
    }, limitMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('latin1');
      const headEnd = raw.indexOf('\r\n\r\n');
      if (headEnd < 0) return reject(new Error(`the server closed the connection without an answer: ${JSON.stringify(raw.slice(0, 200))}`));
      const [statusLine, ...lines] = raw.slice(0, headEnd).split('\r\n');
      const headers = lines.map((l): [string, string] => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]);
      resolve({ statusLine, headers, body: raw.slice(headEnd + 4), closed: true });
    });
    socket.write(bytes);
  });
}

function single(answer: RawAnswer, name: string): string | undefined {
  const values = answer.headers.filter(([n]) => n === name).map(([, v]) => v);
  expect(values.length, `${name} sent ${values.length} times`).toBeLessThanOrEqual(1);
  return values[0];
}

/** The status line, the framing headers and the contract's envelope with its code. */
function expectEnvelopeAnswer(answer: RawAnswer, status: number, code: string): void {
  expect(answer.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} \\S`));
  expect(single(answer, 'content-type')).toBe('application/json; charset=utf-8');
  expect(Number(single(answer, 'content-length'))).toBe(Buffer.byteLength(answer.body, 'latin1'));
  expect(single(answer, 'connection')).toBe('close');
  expect(answer.closed).toBe(true);
  const body = JSON.parse(answer.body);
  expect(body).toMatchObject({ success: false, content: { error: { code, details: [] } } });
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
}

/** An Allow value as its list of methods, exactly (order as sent, no blanks, no repeats). */
function allowed(answer: RawAnswer): string[] | undefined {
  const value = single(answer, 'allow');
  return value === undefined ? undefined : value.split(',').map((m) => m.trim());
}

describe('issue 38: raw-socket refusals carry their headers (CONNECT 405 with Allow)', () => {
  it.each([
    ['an authority target', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
    ['a loopback authority', 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\nProxy-Authorization: Basic Og==\r\n\r\n'],
    ['a path target', 'CONNECT /api/v1/demo-store/storefront/catalog/products HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
  ])('issue 38: CONNECT with %s is a 405 naming exactly GET, POST and OPTIONS in Allow', async (_name, bytes) => {
    const answer = await exchange(bytes);
    expectEnvelopeAnswer(answer, 405, 'method_not_allowed');
    expect(allowed(answer)).toEqual(['GET', 'POST', 'OPTIONS']);
    // No tunnel: nothing after the one answer, and no header a proxy would send.
    expect(single(answer, 'proxy-agent')).toBeUndefined();
  });

  it.each([
    ['a line that is not a request line', 'NOT A REQUEST LINE\r\n\r\n', 400],
    ['a header with a bare CR in its value', 'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n', 400],
    ['a conflicting Content-Length', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx', 400],
    ['headers over the limit', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('issue 38: %s is refused on the raw socket with its status, the envelope and no Allow', async (_name, bytes, status) => {
    const answer = await exchange(bytes);
    expectEnvelopeAnswer(answer, status, 'invalid_parameter');
    expect(single(answer, 'allow')).toBeUndefined();
  });

  it('issue 38: an Expect other than 100-continue is a 417 with the envelope, closing the connection', async () => {
    const answer = await exchange('GET /api/v1/demo-store/storefront/common/countries HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\n\r\n');
    expect(answer.statusLine).toMatch(/^HTTP\/1\.1 417 \S/);
    expect(single(answer, 'content-type')).toBe('application/json; charset=utf-8');
    expect(single(answer, 'connection')).toBe('close');
    expect(single(answer, 'allow')).toBeUndefined();
    const length = Number(single(answer, 'content-length'));
    const body = JSON.parse(answer.body.slice(0, length));
    expect(body).toMatchObject({ success: false, content: { error: { code: 'expectation_failed', details: [{ location: 'header', name: 'Expect' }] } } });
  });

  it('an HTTP/1.1 request without Host, or with two, is a 400 with the envelope (node\'s own check sent a bare 400 with no body, and let two through)', async () => {
    const answer = await exchange('GET /api/v1/demo-store/storefront/common/countries HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(answer.statusLine).toMatch(/^HTTP\/1\.1 400 \S/);
    expect(single(answer, 'content-type')).toBe('application/json; charset=utf-8');
    const length = Number(single(answer, 'content-length'));
    expect(JSON.parse(answer.body.slice(0, length))).toMatchObject({ success: false, content: { error: { code: 'invalid_parameter', details: [{ location: 'header', name: 'host' }] } } });
    // Two Host headers (a browser never sends them): refused, not judged by the first alone.
    const twice = await exchange('GET /__simulator HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
    expect(twice.statusLine).toMatch(/^HTTP\/1\.1 400 \S/);
    expect(JSON.parse(twice.body.slice(0, Number(single(twice, 'content-length'))))).toMatchObject({ content: { error: { details: [{ name: 'host', message: 'must be sent once' }] } } });
    // HTTP/1.0 has no Host requirement: answered (401 here: no token), not refused for it.
    expect((await exchange('GET /api/v1/demo-store/storefront/common/countries HTTP/1.0\r\n\r\n')).statusLine).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('a path that starts with // is routed as sent, as every adapter does, not read as a host to drop', async () => {
    // `//evil.example/api/...` is an absolute path whose first segment is empty (RFC 9112 3.2.1): no route.
    for (const target of ['//evil.example/api/v1/demo-store/storefront/common/countries', '//x/__simulator/stores/demo-store/keys']) {
      const answer = await exchange(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(answer.statusLine, target).toMatch(/^HTTP\/1\.1 404 /);
    }
    // The absolute form still names this server's path.
    const absolute = await exchange('GET http://127.0.0.1/api/v1/demo-store/storefront/common/countries HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(absolute.statusLine).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('issue 38: the server still answers after the refusals (none of them took it down)', async () => {
    const res = await fetch(`${server.url}/api/v1/demo-store/storefront/common/countries`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    await res.body?.cancel();
  });
});
