// Servers for the certification tests: the mock (strict auth), and a transforming proxy in front of
// it that changes requests or responses (one defect per faulty server, or consistent id rewriting).
// All on loopback, port 0, stopped by their handles.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request } from 'undici';
import { createMockServer, type MockServer } from '../../workbench/adapters/node-http.js';

export const TEST_API_KEY = 'sk_test_conformance_6f1d2c9a8b7e';

export function startMock(): Promise<MockServer> {
  return createMockServer({ port: 0, quiet: true, strictAuth: true });
}

export interface ProxiedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, else the text. */
  body: unknown;
}

export interface Transform {
  /** Change the request before it reaches the mock; return a response to answer without the mock. */
  request?(req: ProxiedRequest): Promise<ProxiedResponse | void> | ProxiedResponse | void;
  /** Change the mock's answer. `inner` is the path inside the storefront API. */
  response?(res: ProxiedResponse, req: ProxiedRequest, inner: string): void;
  /** The bytes sent for the (changed) answer: key order, whitespace, compression. Default: compact JSON. */
  serialize?(res: ProxiedResponse, req: ProxiedRequest): Buffer;
}

export interface Running {
  url: string;
  close(): Promise<void>;
}

/**
 * The proxied request sent upstream. Retried once on a connection the mock had already closed: under load
 * the client's keep-alive timer can fire late and reuse a socket past the server's keep-alive timeout,
 * and that race is the harness's, not the certified server's.
 */
async function forward(proxied: ProxiedRequest) {
  const send = () => request(proxied.url, { method: proxied.method as 'GET', headers: proxied.headers, body: proxied.body });
  try {
    return await send();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
    return send();
  }
}

export async function transformingProxy(upstream: string, transform: Transform): Promise<Running> {
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (v === undefined || ['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)) continue;
        headers[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      const proxied: ProxiedRequest = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', upstream), headers, body: chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined };
      const early = await transform.request?.(proxied);
      let answer: ProxiedResponse;
      if (early) {
        answer = early;
      } else {
        const reply = await forward(proxied);
        const text = await reply.body.text();
        const replyHeaders: Record<string, string> = {};
        for (const [k, v] of Object.entries(reply.headers)) if (v !== undefined && !['content-length', 'connection', 'transfer-encoding'].includes(k)) replyHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: leave the text
        }
        answer = { status: reply.statusCode, headers: replyHeaders, body };
      }
      const inner = proxied.url.pathname.replace(/^\/api\/v1\/[^/]+\/storefront/, '');
      transform.response?.(answer, proxied, inner);
      const out = transform.serialize?.(answer, proxied) ?? (typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers, 'content-length': String(Buffer.byteLength(out)) });
      res.end(out);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, message: `test proxy: ${(error as Error).message}`, content: { error: { code: 'bad_gateway', details: [] } } }));
    }
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

export function errorBody(code: string, message: string) {
  return { success: false, message, content: { error: { code, details: [] } } };
}

// ---- A server holding different data: the mock behind a proxy that renames every id consistently.

const ID_RE = /\b(prd|var|crt|cst|cpn|ptk|loc|cat|prm|shp|ord|sel|att|img|usr|tok|cg|crd)_([A-Za-z0-9]+)\b/g;
const OURS = 'DD';

/** The id this server uses for the mock's `prd_7Q2K9X`: `prd_DD7Q2K9X`. */
export function renamed(id: string): string {
  return id.replace(ID_RE, (_, prefix: string, rest: string) => `${prefix}_${OURS}${rest}`);
}

function original(value: string): { text: string; foreign: boolean } {
  let foreign = false;
  const text = value.replace(ID_RE, (whole, prefix: string, rest: string) => {
    if (rest.startsWith(OURS)) return `${prefix}_${rest.slice(OURS.length)}`;
    foreign = true;
    return whole;
  });
  return { text, foreign };
}

function renameDeep(value: unknown): unknown {
  if (typeof value === 'string') return renamed(value);
  if (Array.isArray(value)) return value.map(renameDeep);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameDeep(v)]));
  return value;
}

/**
 * The mock seen through renamed ids: responses carry `prd_DD...` ids; requests must use them (they are
 * mapped back); a request naming one of the mock's own ids in the path or body finds nothing (404
 * after auth and validation, as a server without that record would answer).
 */
export async function differentDataServer(upstream: string): Promise<Running & { foreignLookups: () => number }> {
  let foreignLookups = 0;
  const foreign = new WeakSet<ProxiedRequest>();
  const proxy = await transformingProxy(upstream, {
    request(req) {
      const segments = req.url.pathname.split('/').map((seg) => {
        const o = original(decodeURIComponent(seg));
        if (o.foreign) foreign.add(req);
        return encodeURIComponent(o.text);
      });
      req.url.pathname = segments.join('/');
      const params = [...req.url.searchParams].map(([k, v]) => [k, original(v).text] as const);
      req.url.search = '';
      for (const [k, v] of params) req.url.searchParams.append(k, v);
      if (req.body) {
        const o = original(req.body);
        if (o.foreign) foreign.add(req);
        req.body = o.text;
      }
    },
    response(res, req) {
      if (foreign.has(req) && res.status >= 200 && res.status < 300) {
        foreignLookups++;
        res.status = 404;
        res.body = errorBody('not_found', 'No such record in this store.');
        return;
      }
      res.body = renameDeep(res.body);
    },
  });
  return { ...proxy, foreignLookups: () => foreignLookups };
}
