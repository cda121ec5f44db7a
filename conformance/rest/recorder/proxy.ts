// The recording proxy: a node:http server on loopback that forwards every request to the upstream,
// answers the client with the upstream's answer, and keeps each exchange as a redacted HAR 1.2 entry.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { request as undiciRequest } from 'undici';
import { fail, writeError } from '../../../workbench/http/errors.js';
import type { Har, HarEntry, HarNameValue } from '../har.js';
import { Redactor } from './redact.js';

/** Request header naming the step; the proxy stores it as the entry's `comment` and does not forward it. */
export const STEP_HEADER = 'x-conformance-step';
/** Request bodies above this many bytes are stored truncated (413 traffic), padded back on replay. */
export const MAX_STORED_BODY = 64 * 1024;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length', STEP_HEADER]);

export interface RecordingProxyOptions {
  upstream: string;
  port?: number;
  host?: string;
  /** Called after each entry is added (the CLI rewrites the file). */
  onEntry?: (entry: HarEntry, har: Har) => void;
}

export interface RecordingProxy {
  url: string;
  har(): Har;
  close(): Promise<void>;
}

export async function createRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const upstream = new URL(options.upstream);
  const redactor = new Redactor();
  const har: Har = { log: { version: '1.2', creator: { name: 'storefront-contract record', version: '1' }, entries: [] } };

  const server = http.createServer((req, res) => {
    // An unreachable upstream is the workbench's envelope too (the one error writer), with code bad_gateway.
    forward(req, res).catch((error: Error) => writeError(res, fail(502, 'bad_gateway', `record: upstream failed: ${error.message}`)));
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });

  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = new Date();
    const t0 = performance.now();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const target = new URL(req.url ?? '/', upstream);
    const headers: Record<string, string> = {};
    const rawHeaders: HarNameValue[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i];
      const value = req.rawHeaders[i + 1];
      if (name.toLowerCase() !== STEP_HEADER) rawHeaders.push({ name, value });
      if (HOP_BY_HOP.has(name.toLowerCase())) continue;
      headers[name.toLowerCase()] = headers[name.toLowerCase()] ? `${headers[name.toLowerCase()]}, ${value}` : value;
    }
    const step = req.headers[STEP_HEADER];
    const method = (req.method ?? 'GET').toUpperCase();
    const t1 = performance.now();
    const reply = await undiciRequest(target, { method: method as 'GET', headers, body: body.length ? body : undefined });
    const replyBody = Buffer.from(await reply.body.arrayBuffer());
    const t2 = performance.now();
    const replyHeaders: HarNameValue[] = [];
    for (const [name, value] of Object.entries(reply.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) replyHeaders.push({ name, value: v });
    }
    const outHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(reply.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) outHeaders[name] = value;
    outHeaders['content-length'] = String(replyBody.length);
    res.writeHead(reply.statusCode, outHeaders);
    res.end(replyBody);

    const requestMime = headerValue(rawHeaders, 'content-type') ?? 'application/octet-stream';
    const responseMime = String(reply.headers['content-type'] ?? 'application/octet-stream');
    // Request first: the API key is marked before the token it buys appears in the response.
    const reqHeaders = redactor.headers(rawHeaders);
    const responseText = redactor.body(replyBody.toString('utf8'), responseMime);
    const requestText = body.length ? storedBody(body, requestMime, redactor) : undefined;
    const url = redactor.url(target.toString());
    const entry: HarEntry = {
      startedDateTime: started.toISOString(),
      time: round(performance.now() - t0),
      request: {
        method,
        url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: reqHeaders,
        queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
        ...(requestText ? { postData: requestText } : {}),
        headersSize: -1,
        bodySize: body.length,
      },
      response: {
        status: reply.statusCode,
        statusText: http.STATUS_CODES[reply.statusCode] ?? '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: redactor.headers(replyHeaders),
        content: { size: replyBody.length, mimeType: responseMime, text: responseText },
        redirectURL: '',
        headersSize: -1,
        bodySize: replyBody.length,
      },
      cache: {},
      timings: { send: round(t1 - t0), wait: round(t2 - t1), receive: 0 },
      ...(typeof step === 'string' && step ? { comment: step } : {}),
    };
    har.log.entries.push(entry);
    options.onEntry?.(entry, har);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    har: () => har,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      }),
  };
}

function storedBody(body: Buffer, mimeType: string, redactor: Redactor) {
  if (body.length <= MAX_STORED_BODY) return { mimeType, text: redactor.body(body.toString('utf8'), mimeType) };
  const head = redactor.text(body.subarray(0, 256).toString('utf8'));
  const last = body.subarray(body.length - 1).toString('utf8');
  return { mimeType, text: head, _truncated: true, _padWith: last };
}

function headerValue(headers: HarNameValue[], name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name)?.value;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
