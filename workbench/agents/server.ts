// The MCP server over the agent tools: tools/list answers each tool's name, description and JSON Schemas;
// tools/call validates the input against the tool's input schema (Ajv), runs it, checks the result against
// its output schema, and answers it as structured content plus the same JSON as text. A refusal is the
// tool's error result (isError) with one line naming the way out; an unexpected failure is one line too,
// never a stack. Built on the official SDK's low-level Server, because the tools' schemas are JSON Schema
// derived from the documents (the high-level McpServer takes Zod shapes). Transports are the caller's:
// stdio (cli.ts) and Streamable HTTP on the workbench (../adapters/mcp-http.ts).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ValidateFunction } from 'ajv';
import { getPointer } from 'storefront-contract/contract';
import { formatErrors, issuesToString, relevantErrors } from 'storefront-contract/validators';
import { ajvWithFormats } from '../mock/ajv.js';
import { toolsPackage } from '../contract/files.js';
import { redacted } from './compact.js';
import { MAX_RESULT_BYTES, ToolError, type AgentTool } from './tool.js';

/** What the server tells a client it is for, on initialize. */
export const INSTRUCTIONS =
  'The storefront contract, its sandbox and its certification. Look the contract up (contract_search, then contract_operation / contract_schema / contract_event) instead of guessing fields; call the sandbox with sandbox_call (sign-in is handled) and drive it with workbench_call (reset, clock, stock, carts, orders, faults, events); wait for webhooks with sandbox_wait_for_delivery; check an implementation with certify.';

interface Compiled {
  tool: AgentTool;
  input: ValidateFunction;
  output: ValidateFunction;
}

export interface AgentToolbox {
  tools: readonly AgentTool[];
  /** Calls a tool as tools/call does (validation included): the transport-free core, for tests and the bench. */
  call(name: string, input: unknown, signal?: AbortSignal): Promise<CallToolResult>;
  /** A new SDK server over these tools, for one transport (a stateless HTTP request gets its own). */
  server(): Server;
  /** Secrets the tools hold (keys, tokens): never in a result. */
  secrets?: ReadonlySet<string>;
}

function errorText(tool: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${tool}: ${message}` }] };
}

/** Edit distance of two short strings (what "did you mean" ranks by). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length]!;
}

/** For a value not in an enum: the closest allowed ones (case aside), at most three. */
function closest(value: unknown, allowed: readonly unknown[]): string[] {
  if (typeof value !== 'string') return [];
  const v = value.toLowerCase();
  return allowed
    .filter((a): a is string => typeof a === 'string')
    .map((a) => ({ a, d: a.toLowerCase().includes(v) || v.includes(a.toLowerCase()) ? 0 : distance(v, a.toLowerCase()) }))
    .filter(({ a, d }) => d <= Math.max(2, Math.floor(a.length / 3)))
    .sort((x, y) => x.d - y.d)
    .slice(0, 3)
    .map(({ a }) => a);
}

/**
 * The first errors of a failed validation in the library's one formatting; a value outside a long list
 * (an operation id, a schema name) gets the closest allowed ones instead of the list.
 */
function ajvMessage(v: ValidateFunction, data: unknown): string {
  const errors = relevantErrors(v.errors ?? []).slice(0, 3);
  return errors
    .map((error) => {
      const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
      if (error.keyword === 'enum' && allowed && allowed.length > 8) {
        const value = formatErrors([error], data)[0]!;
        const near = closest(getPointer(data, value.path === '/' ? '' : value.path), allowed);
        return `${value.path}: ${value.got} is not one of its ${allowed.length} values${near.length ? `; did you mean ${near.join(', ')}?` : ''} (contract_search finds them by words)`;
      }
      const cut = (text: string | undefined) => (text !== undefined && text.length > 160 ? `${text.slice(0, 160)}…` : text);
      return issuesToString(formatErrors([error], data).map((i) => ({ ...i, message: cut(i.message)!, expected: cut(i.expected) })));
    })
    .join('; ');
}

export function agentToolbox(tools: readonly AgentTool[], secrets?: ReadonlySet<string>): AgentToolbox {
  const ajv = ajvWithFormats({ allErrors: false, strict: false, useDefaults: true });
  const compiled = new Map<string, Compiled>();
  for (const tool of tools) {
    if (compiled.has(tool.name)) throw new Error(`two agent tools are named ${tool.name}`);
    compiled.set(tool.name, { tool, input: ajv.compile(tool.inputSchema), output: ajv.compile(tool.outputSchema) });
  }

  async function call(name: string, input: unknown, signal?: AbortSignal): Promise<CallToolResult> {
    const entry = compiled.get(name);
    if (!entry) return errorText(name, `no such tool; the tools are ${[...compiled.keys()].join(', ')}`);
    let result: Record<string, unknown>;
    try {
      const args = structuredClone(input ?? {});
      if (!entry.input(args)) return errorText(name, `the input does not match the tool's input schema: ${ajvMessage(entry.input, args)}`);
      result = await entry.tool.run(args, signal);
    } catch (error) {
      if (error instanceof ToolError) return errorText(name, error.message);
      if (error instanceof RangeError && /call stack/i.test(error.message)) return errorText(name, 'the input is nested too deep to read: send a flatter value (a body nests at most 64 levels)');
      const message = String((error as Error)?.message ?? error).split('\n')[0].slice(0, 300);
      return errorText(name, `failed: ${redacted(message, secrets) as string}`);
    }
    // The declared shape is a promise to the client (it checks it too): a result that breaks it is a bug here.
    if (!entry.output(result)) return errorText(name, `internal error: the result does not match the tool's output schema (${ajvMessage(entry.output, result)}); please report it`);
    const text = JSON.stringify(result);
    // Every tool bounds its own result (MAX_RESULT_BYTES); past it is a bug here, said, not sent.
    if (Buffer.byteLength(text) > MAX_RESULT_BYTES) return errorText(name, `internal error: the result is ${Buffer.byteLength(text)} bytes, past the ${MAX_RESULT_BYTES} a tool may answer; please report it`);
    return { structuredContent: result, content: [{ type: 'text', text }] };
  }

  function server(): Server {
    const s = new Server({ name: 'storefront-contract', title: 'Storefront contract', version: toolsPackage.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    s.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema as never, outputSchema: t.outputSchema as never, annotations: t.annotations })),
    }));
    s.setRequestHandler(CallToolRequestSchema, async (request, extra) => call(request.params.name, request.params.arguments, extra.signal));
    return s;
  }

  return { tools, call, server, secrets };
}

