// `storefront-contract mcp`: the agent tools over MCP's stdio transport, for a coding agent that starts the
// server itself (Claude Code, Cursor, VS Code: `"command": "npx", "args": ["storefront-contract", "mcp"]`).
// By default it starts its own workbench on a free loopback port (the sandbox the tools drive, and the
// server `certify` targets by default); with --url it drives a workbench already running (npm start), over
// HTTP. stdout carries the protocol only: every other line goes to stderr. It ends when the client closes
// stdin, or on SIGINT/SIGTERM, closing the workbench it started.
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readSecret, stopSignal, UsageError } from '../cli-support.js';
import { createWorkbench, type Workbench } from '../index.js';
import { createAgentToolbox, type AgentToolbox, type AgentToolFactory } from './index.js';

export const MCP_HELP = `Usage: storefront-contract mcp [options]

The contract, the sandbox and certification as MCP tools for coding agents, over stdio (the client starts
this command). Tools: contract_search, contract_operation, contract_schema, contract_event,
contract_provenance, sandbox_call, workbench_call, sandbox_wait_for_delivery, certify (and, in a clone of
the contract's repository, contract_diff and contract_lint). A running workbench (npm start) serves the same
tools over Streamable HTTP at http://127.0.0.1:4010/mcp.

Options:
  --url <origin>     drive the workbench running there (e.g. http://127.0.0.1:4010) instead of starting one
  --seed <n|word>    the started workbench's seed (default 1)
  --data-dir <dir>   keep the started workbench's stores there across runs (default: in memory)
  -h, --help         this text

Environment: STOREFRONT_API_KEY (the store API key, when the workbench takes only one), STOREFRONT_ADMIN_TOKEN
(the Admin API token, when the workbench takes only one), STOREFRONT_CERTIFY_API_KEY (the key of another
server certify targets): never printed, never in a tool's result. STOREFRONT_CERTIFY_ORIGINS: the origins
other than this machine's that certify may send STOREFRONT_CERTIFY_API_KEY to (comma-separated; none by
default).

Client configuration (stdio):
  { "mcpServers": { "storefront-contract": { "command": "npx", "args": ["storefront-contract", "mcp"] } } }`;

export interface McpCliOptions {
  /** More tools (the CLI adds certification's; the clone's bin contract_diff and contract_lint). */
  extraTools?: readonly AgentToolFactory[];
}

function originOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url "${raw.slice(0, 80)}" is not a URL: give the workbench's origin, e.g. --url http://127.0.0.1:4010`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be http(s), got ${url.protocol}: e.g. --url http://127.0.0.1:4010`);
  if (url.username || url.password) throw new UsageError('--url must not carry credentials: set STOREFRONT_API_KEY / STOREFRONT_ADMIN_TOKEN instead');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export async function runMcp(argv: string[], options: McpCliOptions = {}): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { url: { type: 'string' }, seed: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(`${MCP_HELP}\n`);
    return 0;
  }
  const warn = (line: string) => process.stderr.write(`storefront-contract mcp: ${line}\n`);
  const apiKey = readSecret(undefined, 'api-key', 'STOREFRONT_API_KEY', warn).value;
  const adminToken = readSecret(undefined, 'admin-token', 'STOREFRONT_ADMIN_TOKEN', warn).value;
  if (values.url !== undefined && (values.seed !== undefined || values['data-dir'] !== undefined)) {
    throw new UsageError(`--url drives a running workbench; --${values.seed !== undefined ? 'seed' : 'data-dir'} is for the one this command starts: drop one`);
  }

  // Listened for before anything starts: a client that stops the server at once still gets a clean close.
  const stop = stopSignal();
  let exitCode = 0;
  let workbench: Workbench | undefined;
  try {
  let toolbox: AgentToolbox;
  if (values.url !== undefined) {
    const origin = originOf(values.url);
    toolbox = await createAgentToolbox({ link: { fetch: (request) => fetch(request), origin: () => origin, apiKey, adminToken }, extraTools: options.extraTools });
    warn(`serving the agent tools over stdio, driving the workbench at ${origin}`);
  } else {
    const seed = values.seed === undefined ? undefined : /^\d+$/.test(values.seed) ? Number(values.seed) : values.seed;
    workbench = await createWorkbench({
      port: 0,
      host: '127.0.0.1',
      quiet: true,
      apiKeys: apiKey ? [apiKey] : undefined,
      webhooks: { adminTokens: adminToken ? [adminToken] : undefined, dataDir: values['data-dir'] },
      sandbox: { seed, dataDir: values['data-dir'] },
      mcp: { extraTools: options.extraTools },
    });
    toolbox = await workbench.agents!();
    warn(`serving the agent tools over stdio; its workbench listens on ${workbench.url} (console: ${workbench.url}/console)`);
  }

  const server = toolbox.server();
  const transport = new StdioServerTransport();
  // What the transport could not read is said on stderr, one line each; a message past the transport's
  // limit (10 MiB) closes it, and the command ends with 1 saying so.
  let fatal: string | undefined;
  transport.onerror = (error) => {
    const line = String(error?.message ?? error).split('\n')[0]!.slice(0, 300);
    if (/exceeded maximum size/.test(line)) fatal = `a message on stdin was longer than the transport takes (${line}); closed`;
    warn(fatal ?? `could not read a message: ${line}`);
  };
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await Promise.race([closed, stop.received]);
  await server.close().catch(() => {});
  if (fatal) exitCode = 1;
  } finally {
    stop.dispose();
    await workbench?.close();
  }
  return exitCode;
}
