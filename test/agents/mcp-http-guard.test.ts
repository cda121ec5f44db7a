// /mcp on a running workbench answers only this machine's callers, as the MCP specification asks of a local
// server (DNS rebinding): a page of another site (its Origin), a rebound name (its Host), a cross-site
// navigation get 403 before anything is read; a loopback page and a tool without an Origin are served.
// The transport's own refusals: GET and DELETE (stateless: no stream, no session) 405, a body past 1 MiB
// 413, a body that is not JSON 400 with JSON-RPC's parse error. Real HTTP on loopback (node:http requests,
// since fetch will not send a Host of another name).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbench, type Workbench } from '../../workbench/index.js';
import { MCP_MAX_BODY_BYTES } from '../../workbench/adapters/mcp-http.js';

let workbench: Workbench;
let port: number;
/** The workbench's request log: what the tools' own requests did. */
const logged: string[] = [];

beforeAll(async () => {
  workbench = await createWorkbench({ port: 0, quiet: true, console: false, logSink: (line) => logged.push(line) });
  port = workbench.port;
}, 60_000);
afterAll(() => workbench?.close());

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

function send(options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; path?: string }): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: options.path ?? '/mcp', method: options.method ?? 'POST', headers: { ...MCP_HEADERS, ...options.headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('who /mcp answers', () => {
  it.each([
    ['a page of another site', { origin: 'https://evil.example' }, /web page at https:\/\/evil\.example/],
    ['an opaque origin (a sandboxed page, a file)', { origin: 'null' }, /opaque origin/],
    ['a rebound name (DNS rebinding: the Host is the attacker\'s name)', { host: `evil.example:${0}` }, /Host "evil\.example/],
    ['a cross-site navigation without an Origin', { 'sec-fetch-site': 'cross-site' }, /cross-site/],
  ])('refuses %s with 403 before reading the body', async (_name, headers, reason) => {
    const answer = await send({ headers, body: LIST });
    expect(answer.status).toBe(403);
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(body.error.message).toMatch(reason);
    expect(answer.body).not.toContain('contract_search');
  });

  it.each([
    ['a tool without an Origin', {}],
    ['a page served from localhost', { origin: 'http://localhost:5173' }],
    ['a page on 127.0.0.1', { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'cross-site' }],
    ['Host localhost', { host: `localhost:${0}` }],
  ])('serves %s', async (_name, headers) => {
    const answer = await send({ headers, body: LIST });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).result.tools.map((t: { name: string }) => t.name)).toContain('contract_search');
  });
});

describe('the transport\'s own refusals', () => {
  it.each(['GET', 'DELETE', 'PUT'])('%s is 405 with Allow: POST (stateless: no stream, no session)', async (method) => {
    const answer = await send({ method, body: method === 'PUT' ? LIST : undefined });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
    expect(JSON.parse(answer.body).error.message).toMatch(/stateless/);
  });

  it('a body past 1 MiB is 413; one byte under is read', async () => {
    const padding = (n: number) => JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'contract_search', arguments: { query: 'coupon' }, _meta: { pad: 'x'.repeat(n) } } });
    const fixed = padding(0).length;
    const over = await send({ body: padding(MCP_MAX_BODY_BYTES + 1 - fixed) });
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).error.code).toBe(-32600);
    const at = await send({ body: padding(MCP_MAX_BODY_BYTES - fixed) });
    expect(at.status).toBe(200);
    expect(JSON.parse(at.body).result.structuredContent.results[0].name).toBe('evaluateCartCoupons');
  });

  it('a body past 1 MiB sent without Content-Length (chunked) is 413 too', async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: MCP_HEADERS }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      for (let i = 0; i < 20; i++) req.write(chunk);
      req.end();
    });
    expect(answer).toBe(413);
  });

  it('a body that is not JSON is 400 with the parse error', async () => {
    const answer = await send({ body: '{"jsonrpc": "2.0", ' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.code).toBe(-32700);
  });

  it('every other path goes on to the workbench (/mcpx is not /mcp)', async () => {
    const answer = await send({ method: 'GET', path: '/mcpx' });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false });
  });
});

describe('a caller that goes away', () => {
  it('ends its tool call: a delivery wait stops polling when the connection closes', async () => {
    const store = 'agent-gone';
    const call = (id: number, name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const hook = await send({ body: call(1, 'sandbox_call', { operation_id: 'createWebhook', store_id: store, body: { url: 'http://127.0.0.1:9/hook', events: ['order.created'] } }) });
    expect(JSON.parse(hook.body).result.structuredContent.status).toBe(201);
    const polls = () => logged.filter((line) => line.includes(`/api/v1/${store}/admin/webhooks/deliveries`)).length;
    // A 60 s wait, abandoned after half a second.
    await new Promise<void>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: MCP_HEADERS });
      req.on('error', () => resolve());
      req.end(call(2, 'sandbox_wait_for_delivery', { store_id: store, event: 'order.created', timeout_seconds: 60 }));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 500);
    });
    const atClose = polls();
    expect(atClose).toBeGreaterThan(0);
    // At most the poll under way when it closed; then nothing.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = polls();
    expect(after - atClose).toBeLessThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(polls()).toBe(after);
  });
});

describe('a workbench that listens beyond loopback', () => {
  it('serves no /mcp, and its banner says why and what to use instead', async () => {
    // 127.0.0.2 is still this machine (the loopback interface holds 127/8), but not a loopback name the
    // workbench trusts: it stands for --host 0.0.0.0 without opening a port to the network in a test.
    const wide = await createWorkbench({ host: '127.0.0.2', port: 0, quiet: true, console: false });
    try {
      expect(wide.agents).toBeUndefined();
      expect(wide.describe().join('\n')).toMatch(/mcp {9}off: --host 127\.0\.0\.2 is not loopback .* storefront-contract mcp --url http:\/\/127\.0\.0\.2:\d+/);
      const answer = await fetch(`${wide.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: LIST });
      expect(answer.status).toBe(404);
    } finally {
      await wide.close();
    }
  });
});
