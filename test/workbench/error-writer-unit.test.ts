// issue 38: the one error writer (workbench/http/errors.ts, with the node:http adapter's writers of
// adapters/node-http.ts) on its own, over real loopback HTTP and a raw
// TCP socket but without a workbench, so each of its behaviours is pinned by a test that costs
// milliseconds: the envelope's exact bytes, its content type and byte length (multi-byte text), which
// headers win, a response already started or ended, a 413 that ends later, the raw-socket answer with its
// headers and status text, and the one-sentence description of offending inputs.
// test/workbench/error-writer.test.ts checks that every server of the tools answers through this writer.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeItems,
  envelopeOf,
  fail,
  isErrorReply,
  JSON_CONTENT_TYPE,
  MockHttpError,
  errorResponse,
  jsonResponse,
  replyResponse,
  type ErrorReply,
} from '../../workbench/http/errors.js';
import { refuseSocket, writeError, writeReply, writeResponse } from '../../workbench/adapters/node-http.js';
import { exchangeOf } from '../../workbench/engine/exchange.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let handler: Handler = (_req, res) => res.end();
/** What the handler threw, if anything (a writer that throws must fail the test, not crash the worker). */
let thrown: unknown;
const server = http.createServer((req, res) => {
  try {
    handler(req, res);
  } catch (e) {
    thrown = e;
    if (!res.writableEnded) res.destroy();
  }
});
let socketHandler: (socket: net.Socket) => void = (socket) => socket.destroy();
const rawServer = net.createServer((socket) => socketHandler(socket));

beforeAll(async () => {
  await Promise.all([
    new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    new Promise<void>((resolve) => rawServer.listen(0, '127.0.0.1', resolve)),
  ]);
});
afterAll(async () => {
  server.closeAllConnections();
  await Promise.all([new Promise((resolve) => server.close(resolve)), new Promise((resolve) => rawServer.close(resolve))]);
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** One GET answered by `h`, read to its end. */
async function exchange(h: Handler): Promise<Answer> {
  handler = h;
  thrown = undefined;
  const { port } = server.address() as AddressInfo;
  const answer = await new Promise<Answer>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode!, headers: res.headers, body, text: body.toString('utf8') });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
  expect(thrown).toBeUndefined();
  return answer;
}

/** Everything a raw-socket handler writes before it closes the connection. */
async function rawAnswer(h: (socket: net.Socket) => void): Promise<{ text: string; closed: boolean }> {
  socketHandler = h;
  const { port } = rawServer.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), closed: true }));
  });
}

const items = [
  { location: 'query' as const, name: 'page', message: 'must be >= 1' },
  { location: 'body' as const, name: 'lines[0].quantity', message: 'must be an integer' },
];

describe('issue 38: fail, isErrorReply and MockHttpError build the failure value', () => {
  it('fail keeps status, code, message and details, defaults details to [] and adds headers only when given', () => {
    expect(fail(404, 'not_found', 'Cart c_1 not found.', items)).toStrictEqual({ status: 404, error: { code: 'not_found', message: 'Cart c_1 not found.', details: items } });
    const bare = fail(400, 'invalid_body', 'Bad.');
    expect(bare).toStrictEqual({ status: 400, error: { code: 'invalid_body', message: 'Bad.', details: [] } });
    expect('headers' in bare).toBe(false);
    expect(fail(405, 'method_not_allowed', 'No.', [], { allow: 'GET' })).toStrictEqual({
      status: 405,
      error: { code: 'method_not_allowed', message: 'No.', details: [] },
      headers: { allow: 'GET' },
    });
  });

  it('isErrorReply tells a failure from a success by its error field', () => {
    expect(isErrorReply(fail(500, 'internal_error', 'x'))).toBe(true);
    expect(isErrorReply({ error: null })).toBe(true);
    expect(isErrorReply({ error: undefined })).toBe(false);
    expect(isErrorReply({ status: 200, body: {} } as { error?: unknown })).toBe(false);
  });

  it('MockHttpError carries its fields, defaults details and headers to empty, and gives the same reply as fail', () => {
    const full = new MockHttpError(401, 'unauthorized', 'Send a token.', items, { 'www-authenticate': 'Bearer' });
    expect(full).toBeInstanceOf(Error);
    expect(full.message).toBe('Send a token.');
    expect(full.reply).toStrictEqual(fail(401, 'unauthorized', 'Send a token.', items, { 'www-authenticate': 'Bearer' }));
    const bare = new MockHttpError(413, 'payload_too_large', 'Too big.');
    expect(bare.details).toStrictEqual([]);
    expect(bare.headers).toStrictEqual({});
    expect(bare.reply).toStrictEqual({ status: 413, error: { code: 'payload_too_large', message: 'Too big.', details: [] }, headers: {} });
  });

  it('envelopeOf is the contract\'s envelope, these keys in this order', () => {
    const envelope = envelopeOf({ code: 'not_found', message: 'Nope.', details: items });
    expect(JSON.stringify(envelope)).toBe(JSON.stringify({ success: false, message: 'Nope.', content: { error: { code: 'not_found', details: items } } }));
  });
});

describe('issue 38: writeError and jsonResponse over HTTP', () => {
  it('writes the envelope with its headers, the JSON content type and the byte length of multi-byte text', async () => {
    const message = 'Le panier « c_1 » est introuvable — €';
    const answer = await exchange((_req, res) => writeError(res, fail(404, 'not_found', message, items, { 'x-extra': 'yes', 'content-type': 'text/plain' })));
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(JSON_CONTENT_TYPE).toBe('application/json; charset=utf-8');
    expect(answer.headers['content-length']).toBe(String(answer.body.length));
    expect(answer.body.length).toBeGreaterThan(answer.text.length); // multi-byte: bytes, not characters
    expect(answer.headers['x-extra']).toBe('yes');
    expect(answer.text).toBe(JSON.stringify({ success: false, message, content: { error: { code: 'not_found', details: items } } }));
  });

  it('writes a thrown MockHttpError the same way, with its headers', async () => {
    const answer = await exchange((_req, res) => writeError(res, new MockHttpError(401, 'unauthorized', 'Send a token.', [], { 'www-authenticate': 'Bearer error="invalid_token"' })));
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(JSON.parse(answer.text)).toStrictEqual({ success: false, message: 'Send a token.', content: { error: { code: 'unauthorized', details: [] } } });
  });

  it('jsonResponse sends a Buffer body as it is and a string as UTF-8', async () => {
    const bytes = Buffer.from('{"a":"\u00e9"}');
    const fromBuffer = await exchange((_req, res) => writeResponse(res, jsonResponse(undefined, 201, bytes, { 'x-one': '1' })));
    expect(fromBuffer).toMatchObject({ status: 201, text: '{"a":"\u00e9"}' });
    expect(fromBuffer.headers['content-length']).toBe(String(bytes.length));
    expect(fromBuffer.headers['x-one']).toBe('1');
    const fromString = await exchange((_req, res) => writeResponse(res, jsonResponse(undefined, 200, '{"a":"\u00e9"}')));
    expect(fromString.body.equals(bytes)).toBe(true);
    expect(fromString.headers['content-length']).toBe(String(bytes.length));
    expect(fromString.headers['content-type']).toBe(JSON_CONTENT_TYPE);
  });

  it('a response already started is only ended: its status, headers and bytes stay, no second head is written', async () => {
    const answer = await exchange((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-first': '1' });
      res.write('partial');
      writeError(res, fail(500, 'internal_error', 'Late failure.'));
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain');
    expect(answer.text).toBe('partial');
  });

  it('a response already ended is left alone (no error, nothing more written)', async () => {
    let ended = false;
    const answer = await exchange((_req, res) => {
      res.end('done');
      writeError(res, fail(500, 'internal_error', 'Late failure.'));
      ended = res.writableEnded;
    });
    expect(answer).toMatchObject({ status: 200, text: 'done' });
    expect(ended).toBe(true);
  });

  it('issue 39 item 1: the Response of an exchange carries its headers under the answer\'s own, and no body for HEAD', async () => {
    const x = exchangeOf(new Request('http://127.0.0.1/x', { method: 'HEAD' }));
    x.out['x-simulator'] = 'outside-contract';
    x.out.allow = 'overridden';
    const head = errorResponse(x, fail(405, 'method_not_allowed', 'No.', [], { allow: 'GET' }));
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET');
    expect(head.headers.get('x-simulator')).toBe('outside-contract');
    expect(head.body).toBeNull();
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    const get = replyResponse(exchangeOf(new Request('http://127.0.0.1/x')), { status: 200, body: { a: 1 } });
    expect(await get.text()).toBe('{"a":1}');
    expect(get.headers.get('content-length')).toBe('7');
  });

  it('writeReply: an error reply is the envelope, its own headers winning over the ones given', async () => {
    const answer = await exchange((_req, res) => writeReply(res, fail(405, 'method_not_allowed', 'No.', [], { allow: 'GET, POST' }), { allow: 'ignored', 'x-simulator': 'outside-contract' }));
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, POST');
    expect(answer.headers['x-simulator']).toBe('outside-contract');
    expect(JSON.parse(answer.text)).toStrictEqual({ success: false, message: 'No.', content: { error: { code: 'method_not_allowed', details: [] } } });
    const noOwn = await exchange((_req, res) => writeReply(res, fail(404, 'not_found', 'Gone.'), { 'x-simulator': 'outside-contract' }));
    expect(noOwn.headers['x-simulator']).toBe('outside-contract');
    expect(noOwn.status).toBe(404);
  });

  it('writeReply: a success is its body as JSON (or its Buffer), with the headers merged the same way', async () => {
    const json = await exchange((_req, res) => writeReply(res, { status: 201, body: { id: 'c_1' }, headers: { location: '/carts/c_1' } }, { location: 'ignored', 'x-given': 'g' }));
    expect(json).toMatchObject({ status: 201, text: '{"id":"c_1"}' });
    expect(json.headers.location).toBe('/carts/c_1');
    expect(json.headers['x-given']).toBe('g');
    expect(json.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    const raw = await exchange((_req, res) => writeReply(res, { status: 200, body: Buffer.from('[1, 2]') }, { 'x-given': 'g' }));
    expect(raw).toMatchObject({ status: 200, text: '[1, 2]' });
    expect(raw.headers['x-given']).toBe('g');
  });
});

describe('issue 38: refuseSocket answers on a raw socket', () => {
  it('writes the status line with its reason, the reply\'s headers, the envelope with its byte length, then closes', async () => {
    const reply: ErrorReply = fail(405, 'method_not_allowed', 'CONNECT is not served — use GET.', [], { allow: 'GET, POST' });
    const { text, closed } = await rawAnswer((socket) => refuseSocket(socket, reply));
    const body = JSON.stringify({ success: false, message: 'CONNECT is not served — use GET.', content: { error: { code: 'method_not_allowed', details: [] } } });
    expect(closed).toBe(true);
    expect(text).toBe(
      `HTTP/1.1 405 Method Not Allowed\r\nallow: GET, POST\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
  });

  it('a status with no standard reason gets an empty one; no headers means none before content-type', async () => {
    const { text } = await rawAnswer((socket) => refuseSocket(socket, fail(499, 'invalid_parameter', 'x')));
    expect(text.startsWith('HTTP/1.1 499 \r\ncontent-type: application/json; charset=utf-8\r\n')).toBe(true);
    const two = await rawAnswer((socket) => refuseSocket(socket, fail(431, 'invalid_parameter', 'y', [], { a: '1', b: '2' })));
    expect(two.text.startsWith('HTTP/1.1 431 Request Header Fields Too Large\r\na: 1\r\nb: 2\r\ncontent-type: ')).toBe(true);
  });
});

describe('issue 38: refuseSocket closes the connection itself', () => {
  it('also when the client keeps its side open (half-open), so a refused peer cannot hold the socket', async () => {
    const serverClosed = new Promise<void>((resolve) => {
      socketHandler = (socket) => {
        socket.on('close', () => resolve());
        refuseSocket(socket, fail(400, 'invalid_parameter', 'x'));
      };
    });
    const { port } = rawServer.address() as AddressInfo;
    const client = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    client.on('data', (c: Buffer) => received.push(c));
    client.on('error', () => undefined);
    const clientGotEnd = new Promise<void>((resolve) => client.on('end', () => resolve()));
    try {
      await Promise.all([serverClosed, clientGotEnd]);
      expect(Buffer.concat(received).toString('utf8')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    } finally {
      client.destroy();
    }
  });
});

describe('issue 38: describeItems', () => {
  it('says where each input is (body field, header, or a parameter of its location) and joins them with "; "', () => {
    expect(
      describeItems([
        { location: 'body', name: 'email', message: 'must be an email' },
        { location: 'header', name: 'X-Api-Key', message: 'is missing' },
        { location: 'query', name: 'page', message: 'must be >= 1' },
        { location: 'path', name: 'store_id', message: 'is unknown' },
      ]),
    ).toBe("body field 'email' must be an email; header 'X-Api-Key' is missing; query parameter 'page' must be >= 1; path parameter 'store_id' is unknown");
    expect(describeItems([])).toBe('');
  });
});
