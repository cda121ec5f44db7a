// The agent tools over MCP's Streamable HTTP transport, at /mcp on a running workbench, as a fetch
// handler in front of the engine: a request for /mcp is answered here, any other goes on to the engine.
// Stateless (the SDK's web-standard transport, a new server per request, JSON answers): every tool call
// is one POST, so any number of clients (and a restart) need no session. The MCP specification asks a
// local server to check Origin against DNS rebinding: a page of another site (its Origin), a rebound name
// (the Host), a cross-site navigation are refused with 403 by the rule of the workbench's other control
// surfaces (../http/local-origin.ts), before the SDK reads anything. Bodies past 1 MiB get 413.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { closeSignal, exchangeOf, respond } from '../engine/exchange.js';
import { checkDeclaredLength, readBody } from '../http/body.js';
import { MockHttpError } from '../http/errors.js';
import { refuseForeignCaller } from '../http/local-origin.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AgentToolbox } from '../agents/server.js';

/** Where the workbench serves MCP. */
export const MCP_PATH = '/mcp';
/** Servers kept for the next requests: as many as run at once, up to this. */
const MAX_IDLE_SERVERS = 16;
/** The largest JSON-RPC message taken, in bytes. */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;

type FetchHandler = (request: Request) => Promise<Response>;

/** A JSON-RPC error as MCP's HTTP transport answers it (no request id is known before the body is read). */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return respond(undefined, status, { 'content-type': 'application/json', ...headers }, JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * `inner` with /mcp answered in front of it. `toolbox` builds the tools once, on the first MCP request
 * (the contract model, the workbench API document), and is shared by every request after.
 */
export function withMcpEndpoint(inner: FetchHandler, toolbox: () => Promise<AgentToolbox>): FetchHandler {
  let tools: Promise<AgentToolbox> | undefined;
  // Servers are built once and kept between requests (building one costs about as much as a tool call):
  // each request takes an idle one, connects it to its own transport, and gives it back once closed.
  const idle: Server[] = [];
  return async (request) => {
    // Every request of the workbench passes here: a string test of the URL's path, no URL parsed for the others.
    const url = request.url;
    const at = url.indexOf('/', url.indexOf('//') + 2);
    if (at === -1 || !url.startsWith(MCP_PATH, at)) return inner(request);
    const x = exchangeOf(request);
    if (x.url.pathname !== MCP_PATH && x.url.pathname !== `${MCP_PATH}/`) return inner(request);
    const refused = refuseForeignCaller(x.headers);
    if (refused) return rpcError(403, -32000, `Forbidden: ${refused}.`);
    // Stateless: no stream the server opens (GET) and no session to end (DELETE).
    if (request.method !== 'POST') return rpcError(405, -32000, 'Method not allowed: this MCP endpoint is stateless; send each JSON-RPC message as a POST.', { allow: 'POST' });
    let body: Buffer;
    try {
      checkDeclaredLength(x, MCP_MAX_BODY_BYTES);
      body = await readBody(x, MCP_MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof MockHttpError) return rpcError(error.status, -32600, error.message);
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch (error) {
      return rpcError(400, -32700, `Parse error: the body is not JSON (${(error as Error).message.slice(0, 120)}).`);
    }
    tools ??= toolbox();
    tools.catch(() => (tools = undefined));
    const server = idle.pop() ?? (await tools).server();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    // A caller that goes away ends its tool calls: closing the transport aborts each handler's signal (a
    // delivery wait stops polling) instead of running to its time-out for nobody.
    const gone = closeSignal(x);
    let stop!: () => void;
    // The SDK's JSON answer never settles once its transport is closed: the request ends on the close instead.
    const abandoned = new Promise<Response>((resolve) => {
      stop = () => {
        void server.close().catch(() => {});
        resolve(rpcError(499, -32000, 'The caller went away.'));
      };
    });
    if (gone.aborted) stop();
    else gone.addEventListener('abort', stop, { once: true });
    try {
      // The body is read already: the SDK gets it parsed, with a Request of the same headers and none.
      return await Promise.race([transport.handleRequest(new Request(x.url, { method: 'POST', headers: x.headers as Record<string, string> }), { parsedBody: parsed }), abandoned]);
    } finally {
      // The answer is whole (JSON, not a stream): the transport is done, and the server free for the next.
      gone.removeEventListener('abort', stop);
      await server.close().catch(() => {});
      if (idle.length < MAX_IDLE_SERVERS) idle.push(server);
    }
  };
}
