// Issue 41's scripted agent session, driven by the SDK's own client over both transports: stdio (the
// `storefront-contract mcp` command, which starts its own workbench) and Streamable HTTP (/mcp of a
// running `storefront-contract mock`). It lists the tools, searches for "coupon", reads the coupon
// operation, lists products in a fresh store, advances the clock, subscribes a real receiver, places an
// order, waits for order.created to be delivered (the receiver got it) and certifies the sandbox. Every
// result is checked against the output schema its tool declared (the client checks too), and no result
// holds a credential the tools signed in with.
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { mockCli, stopChild } from '../helpers/mock-cli.js';

const bin = path.join(repoRoot, 'cli/storefront-contract.ts');
const cli = mockCli();

interface Receiver {
  url: string;
  bodies: string[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/hook`, bodies, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const ajv = new Ajv2020({ strict: false, allErrors: true });

/** Calls a tool and checks its result against the tool's declared output schema; answers the structured result. */
async function call(client: Client, tools: Map<string, Tool>, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  const text = (result.content as Array<{ type: string; text: string }>)[0]?.text;
  expect(result.isError, `${name}: ${text}`).toBeFalsy();
  const validate = ajv.compile(tools.get(name)!.outputSchema as object);
  expect(validate(result.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
  // The text content is the same result, for clients that read only text.
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** Every string a result holds, for the secret check. */
const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];

describe.each(['stdio', 'http'] as const)('an agent session over %s', (transport) => {
  let client: Client;
  let receiver: Receiver;
  let stopServer: () => Promise<unknown>;
  let workbenchUrl: string;
  const store = `agent-${transport}`;
  const seen: unknown[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    client = new Client({ name: 'test-agent', version: '1.0.0' });
    if (transport === 'stdio') {
      let stderr = '';
      const stdio = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', bin, 'mcp'], cwd: repoRoot, env: process.env as Record<string, string>, stderr: 'pipe' });
      stdio.stderr?.on('data', (c) => (stderr += c));
      await client.connect(stdio);
      workbenchUrl = await new Promise<string>((resolve) => {
        const look = () => {
          const m = /listens on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
          if (m) resolve(m[1]);
          else setTimeout(look, 20);
        };
        look();
      });
      stopServer = () => client.close();
    } else {
      const mock = await cli.start(['--port', '0', '--quiet'], 'world and back office');
      workbenchUrl = mock.url;
      await client.connect(new StreamableHTTPClientTransport(new URL(`${mock.url}/mcp`)));
      stopServer = async () => {
        await client.close();
        expect(await stopChild(mock.child)).toBe(0);
      };
    }
  }, 60_000);

  afterAll(async () => {
    await stopServer?.();
    await receiver?.close();
  });

  it('goes from a search to a certified sandbox, every result as declared', async () => {
    const listed = await client.listTools();
    const tools = new Map(listed.tools.map((t) => [t.name, t]));
    expect([...tools.keys()]).toEqual(expect.arrayContaining(['contract_search', 'contract_operation', 'contract_schema', 'contract_event', 'contract_provenance', 'sandbox_call', 'workbench_call', 'sandbox_wait_for_delivery', 'certify']));
    for (const tool of listed.tools) {
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
    }

    const found = await call(client, tools, 'contract_search', { query: 'coupon' });
    seen.push(found);
    expect(found.results[0]).toMatchObject({ kind: 'operation', name: 'evaluateCartCoupons' });
    expect(found.results.map((r: { kind: string }) => r.kind)).toContain('event');

    const card = await call(client, tools, 'contract_operation', { operation_id: found.results[0].name });
    seen.push(card);
    expect(card).toMatchObject({ method: 'GET', path: '/api/v1/{store_id}/storefront/pos/carts/{id}/evaluate-coupons', source: 'stated by the platform' });
    expect(Object.keys(card.responses)).toEqual(['200', '401', '404']);
    expect(card.errors.codes).toEqual(['not_found', 'unauthorized']);
    expect(Buffer.byteLength(JSON.stringify(card))).toBeLessThanOrEqual(2048);

    const products = await call(client, tools, 'sandbox_call', { operation_id: 'listProducts', store_id: store, query: { limit: 3 } });
    seen.push(products);
    expect(products).toMatchObject({ status: 200, signed_in: expect.stringMatching(/^an anonymous user's access token \(user usr_\w+\)$/) });
    expect(products.body.content.products).toHaveLength(3);
    const product = products.body.content.products[0];

    const clock = await call(client, tools, 'workbench_call', { operation_id: 'setClock', store_id: store, body: { advance: 'PT2H' } });
    seen.push(clock);
    expect(clock.status).toBe(200);
    const offset = clock.body.content.offset_ms;
    expect(offset).toBeGreaterThanOrEqual(2 * 3600_000 - 1000);
    expect(offset).toBeLessThanOrEqual(2 * 3600_000 + 1000);

    const hook = await call(client, tools, 'sandbox_call', { operation_id: 'createWebhook', store_id: store, body: { url: receiver.url, events: ['order.created'] } });
    seen.push(hook);
    expect(hook.status).toBe(201);
    // The signing secret is returned once by the platform; an agent's result never holds it.
    expect(hook.body.content.secret).toMatch(/^\[redacted: signing secrets are never shown to agents/);

    const cart = await call(client, tools, 'workbench_call', {
      operation_id: 'createCart',
      store_id: store,
      body: { user_id: 'usr_agent', cart_items: [{ product_id: product.id, variant_id: product.variants[0].id, quantity: 1 }] },
    });
    seen.push(cart);
    expect(cart.status).toBe(201);
    const order = await call(client, tools, 'workbench_call', { operation_id: 'placeOrder', store_id: store, body: { cart_id: cart.body.content.cart.id } });
    seen.push(order);
    expect(order.status).toBe(201);
    const orderNumber = order.body.content.order.order_number;

    const delivered = await call(client, tools, 'sandbox_wait_for_delivery', { store_id: store, event: 'order.created', timeout_seconds: 60 });
    seen.push(delivered);
    expect(delivered).toMatchObject({ delivered: true, attempt: { event: 'order.created', status: 'succeeded', response_status: 200 } });
    // The receiver really got the order.
    expect(receiver.bodies.some((b) => JSON.parse(b).payload.properties.order_number === orderNumber)).toBe(true);

    const certified = await call(client, tools, 'certify', { store_id: store });
    seen.push(certified);
    expect(certified).toMatchObject({ verdict: 'certified', target: workbenchUrl, store_id: store, failed_operations: [] });
    expect(certified.exchanges.failed).toBe(0);
    expect(certified.exchanges.passed).toBeGreaterThan(20);

    // No credential the tools used is in any result: the store's key, the admin token, any bearer token.
    const keyAnswer = await fetch(`${workbenchUrl}/__simulator/stores/${store}/keys`).then((r) => r.json());
    const key = keyAnswer.content.api_key as string;
    expect(key).toMatch(/^sk_test_/);
    const all = seen.flatMap(strings);
    expect(all.filter((s) => s.includes(key))).toEqual([]);
    // The sandbox's tokens have the workbench's `mock_` shape (workbench/sandbox/identities.ts); the tools' admin token is theirs.
    expect(all.filter((s) => /mock_[A-Za-z0-9_-]{16,}/.test(s))).toEqual([]);
    expect(all.filter((s) => s.includes('agent-admin-token'))).toEqual([]);
  }, 240_000);
});
