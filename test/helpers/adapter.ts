// Which adapter the HTTP-level tests reach the workbench through (issue 39: the suite through every
// adapter). `SFC_TEST_ADAPTER=node-http` (the default) starts createWorkbench on a loopback port and sends
// with undici; `SFC_TEST_ADAPTER=msw-node` composes the same workbench without a port
// (createWorkbenchHandler) behind the MSW adapter that `storefront-contract-tools/msw` ships (one
// catch-all handler per workbench, under an origin that resolves nowhere, so only MSW can answer) and
// sends with the global fetch that msw/node intercepts. A test reads what it gets as the same `Reply`
// either way. `npm run test:adapters` runs the HTTP-level folders through msw-node (startWorkbench for the
// sandbox's tests, startMockServer for the mock's and the simulator's, send for every request).
import { setupServer } from 'msw/node';
import { request } from 'undici';
import { toReply, type Reply } from './http-reply.js';
import { http } from 'msw';
import { createMockServer, type MockServer, type MockServerOptions } from '../../workbench/adapters/node-http.js';
import { inProcessHandler } from '../../workbench/adapters/in-process.js';
import { createMockHandler } from '../../workbench/engine/compose.js';
import { createWorkbench, createWorkbenchHandler, type Workbench, type WorkbenchHandler, type WorkbenchOptions } from '../../workbench/index.js';
import { inProcessSandbox, under } from '../../workbench/msw/handlers.js';

export type TestAdapter = 'node-http' | 'msw-node';

const ADAPTERS: readonly TestAdapter[] = ['node-http', 'msw-node'];

function chosen(): TestAdapter {
  const value = process.env.SFC_TEST_ADAPTER ?? 'node-http';
  if (!(ADAPTERS as readonly string[]).includes(value)) throw new Error(`SFC_TEST_ADAPTER=${value} is not an adapter the tests know; use one of ${ADAPTERS.join(', ')}`);
  return value as TestAdapter;
}

export const TEST_ADAPTER: TestAdapter = chosen();

let server: ReturnType<typeof setupServer> | undefined;
let started = 0;

/** msw/node's server, started once per test worker; and a fresh origin that resolves nowhere. */
function mswOrigin(): { msw: ReturnType<typeof setupServer>; base: string } {
  if (!server) {
    server = setupServer();
    // Anything not under a workbench's origin (a receiver a test started on loopback) goes to the network.
    server.listen({ onUnhandledRequest: 'bypass' });
  }
  return { msw: server, base: `http://wb-${++started}.sandbox.test` };
}

/** The mock server alone (createMockServer's options: specs, extensions, faults) through the chosen adapter. */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  if (TEST_ADAPTER === 'node-http') return createMockServer(options);
  const { msw, base } = mswOrigin();
  const { port: _port, host: _host, docsRoot: _docs, preloadPrism: _prism, ...rest } = options;
  const { handle } = await createMockHandler(rest);
  // The engine behind the in-process adapter (a server's refusals, the drain on close), under the same
  // catch-all the shipped MSW adapter registers (workbench/msw/handlers.ts).
  const inProcess = inProcessHandler(handle);
  msw.use(http.all(under(base), ({ request }) => inProcess.handle(request)));
  return {
    url: base,
    port: 0,
    bases: { storefront: `${base}/api/v1/{store_id}/storefront`, admin: `${base}/api/v1/{store_id}/admin`, docs: `${base}/docs` },
    close: () => inProcess.drain(),
  };
}

/** The workbench through the chosen adapter: the same options, the same parts (sandbox, simulator) to look into. */
export async function startWorkbench(options: WorkbenchOptions): Promise<Workbench> {
  if (TEST_ADAPTER === 'node-http') return createWorkbench(options);
  const { msw, base } = mswOrigin();
  const { port: _port, host: _host, docsRoot: _docs, preloadPrism: _prism, ...rest } = options;
  let engine: WorkbenchHandler | undefined;
  const inProcess = await inProcessSandbox(base, async () => {
    engine = await createWorkbenchHandler({ ...rest, assetOrigin: base });
    return { ...engine, apiKey: (storeId) => engine!.sandbox?.sandbox.apiKey(storeId) ?? null };
  });
  msw.use(...inProcess.handlers);
  const storefront = `${base}/api/v1/{store_id}/storefront`;
  return {
    url: base,
    port: 0,
    bases: { storefront, admin: `${base}/api/v1/{store_id}/admin`, docs: `${base}/docs` },
    simulator: engine!.simulator,
    sandbox: engine!.sandbox,
    describe: () => [`  ${base} (MSW in Node, in process)`],
    close: () => inProcess.close(),
  };
}

export interface SendInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** One request to a workbench started by startWorkbench, through the chosen adapter. */
export async function send(url: string, init: SendInit = {}): Promise<Reply> {
  const method = init.method ?? 'GET';
  if (TEST_ADAPTER === 'node-http') return toReply(await request(url, { method: method as 'GET', headers: init.headers, body: init.body }));
  const body = typeof init.body === 'string' || init.body === undefined ? init.body : new Uint8Array(init.body);
  const res = await fetch(url, { method, headers: init.headers, body: body as BodyInit | undefined, redirect: 'manual' });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name] = value));
  return { status: res.status, headers, text, json };
}

/**
 * How a request ended, for tests of a dropped connection: 'answered <status>', or 'dropped' when the
 * client saw a network error (node:http: the socket destroyed, undici's UND_ERR_SOCKET; MSW: the engine's
 * Response.error(), which fetch rejects with a TypeError), or the error's code otherwise.
 */
export async function outcome(url: string, init: SendInit & { signal?: AbortSignal } = {}): Promise<string> {
  try {
    const reply = await send(url, init);
    return `answered ${reply.status}`;
  } catch (e) {
    const error = e as Error & { code?: string };
    if (TEST_ADAPTER === 'node-http') return error.code === 'UND_ERR_SOCKET' ? 'dropped' : String(error.code ?? error.message);
    return error instanceof TypeError ? 'dropped' : String(error.code ?? error.message);
  }
}
