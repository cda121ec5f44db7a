// The agent tools of one workbench: the contract's (read from the model) and the sandbox's (over a link to
// the workbench), plus the ones its caller adds (certification's, from ../../conformance/agents/, which the
// workbench may not import; the clone's diff and lint), as one toolbox that the MCP transports serve
// (stdio: cli.ts; Streamable HTTP: ../adapters/mcp-http.ts).
import { contractTools } from './contract-tools.js';
import { SandboxLink, sandboxTools, type WorkbenchLink } from './sandbox-tools.js';
import { agentToolbox, type AgentToolbox } from './server.js';
import type { AgentTool } from './tool.js';

export interface AgentToolsOptions {
  link: WorkbenchLink;
  /** More tools, made over the same link (certification's `certify`; the clone's bin adds contract_diff and contract_lint). */
  extraTools?: readonly AgentToolFactory[];
}

/** Tools a caller adds, made over the toolbox's link to the workbench (its sign-ins, its secrets). */
export type AgentToolFactory = (sandbox: SandboxLink) => readonly AgentTool[] | Promise<readonly AgentTool[]>;

export async function createAgentToolbox(options: AgentToolsOptions): Promise<AgentToolbox> {
  const sandbox = new SandboxLink(options.link);
  const extra = await Promise.all((options.extraTools ?? []).map((make) => make(sandbox)));
  const tools = [...(await contractTools()), ...(await sandboxTools(sandbox)), ...extra.flat()];
  return agentToolbox(tools, sandbox.secrets);
}

export { agentToolbox, INSTRUCTIONS, type AgentToolbox } from './server.js';
export { ToolError, objectSchema, type AgentTool } from './tool.js';
export { SandboxLink, type WorkbenchLink } from './sandbox-tools.js';
export { bounded, byteLength, redacted } from './compact.js';
