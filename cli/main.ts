// The `storefront-contract` command's subcommands and their dispatch: `main(argv)` returns the exit code
// and writes to process.stdout/stderr; the bin (storefront-contract.ts) adds what only a whole process
// needs (exit, broken pipes), so a test or a script can run a command in-process. Each subcommand's module
// is loaded only when it runs, so `--help` and `webhooks trigger` never load Prism or the certifier.
import { toolsPackage } from '../workbench/contract/files.js';
import { UsageError } from '../workbench/cli-support.js';
import type { AgentToolFactory } from '../workbench/agents/index.js';

type Run = (argv: string[]) => Promise<number>;

/**
 * The agent tools the CLI adds to the workbench's own (the contract's and the sandbox's): certification's
 * `certify` (conformance/ sits above the workbench, so the workbench cannot take it itself), and whatever a
 * caller registers before main() runs (the clone's bin: contract_diff and contract_lint).
 */
const registeredAgentTools: AgentToolFactory[] = [];

export function registerAgentTools(...factories: AgentToolFactory[]): void {
  registeredAgentTools.push(...factories);
}

async function agentTools(): Promise<AgentToolFactory[]> {
  const { checkingTools } = await import('../conformance/agents/certify-tool.js');
  return [checkingTools, ...registeredAgentTools];
}

interface Command {
  summary: string;
  load(): Promise<Run>;
}

const commands: Record<string, Command> = {
  mock: {
    summary: 'the workbench: storefront mock, live Admin webhook API and webhook simulator (npm start in a clone)',
    load: async () => {
      const [{ runMock }, extraTools] = await Promise.all([import('../workbench/cli.js'), agentTools()]);
      return (argv) => runMock(argv, { agentTools: extraTools });
    },
  },
  webhooks: {
    summary: 'raise events on a running workbench (trigger), list the catalog (events), receive and forward deliveries (listen)',
    load: async () => (await import('../workbench/simulator/cli.js')).runWebhooks,
  },
  certify: {
    summary: 'certify a live storefront implementation against the contract (REST)',
    load: async () => (await import('../conformance/rest/cli.js')).runCertify,
  },
  'certify-webhooks': {
    summary: 'certify a webhook sender or a subscriber endpoint (sender | receiver)',
    load: async () => (await import('../conformance/webhooks/cli.js')).runCertifyWebhooks,
  },
  record: {
    summary: 'a recording proxy that writes redacted HAR 1.2 traffic for certification',
    load: async () => (await import('../conformance/rest/record.js')).runRecord,
  },
  mcp: {
    summary: 'the contract, the sandbox and certification as MCP tools for coding agents (stdio; a running workbench serves them at /mcp)',
    load: async () => {
      const [{ runMcp }, extraTools] = await Promise.all([import('../workbench/agents/cli.js'), agentTools()]);
      return (argv) => runMcp(argv, { extraTools });
    },
  },
  changelog: {
    summary: 'what changed in the contract between two versions, breaking / non-breaking / docs-only (in a clone)',
    load: async () => clonesOnly,
  },
  proxy: {
    summary: 'a validating proxy: forwards live traffic unchanged and prints every exchange that breaks the contract',
    load: async () => (await import('../conformance/rest/observed/cli.js')).runProxy,
  },
};

/**
 * `changelog` reads the spec's git history and runs the diff engines, dev dependencies of the contract's
 * repository: its clone's bin (scripts/bin/storefront-contract.mjs) runs it; here it says where to go.
 */
async function clonesOnly(): Promise<number> {
  process.stderr.write(
    'storefront-contract changelog: runs in a clone of the contract repository (it reads the spec\'s git history and runs the diff engines of its dev dependencies): there, npx storefront-contract changelog <old> <new> or npm run changelog -- <old> <new>. The changelog of the released versions ships with this package: storefront-contract mock, then /docs/changelog.html\n',
  );
  return 2;
}

function version(): string {
  return toolsPackage.version;
}


export const TOP_HELP = `Usage: storefront-contract <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(18)} ${c.summary}`)
  .join('\n')}

Run "storefront-contract <command> --help" for a command's flags, environment variables and an example.
Secrets (API keys, admin tokens, signing secrets) are read from environment variables and never printed.`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${TOP_HELP}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`storefront-contract: unknown command "${name}"; the commands are ${Object.keys(commands).join(', ')} (see --help).\n`);
    return 2;
  }
  try {
    return await (await command.load())(rest);
  } catch (error) {
    // parseArgs throws TypeErrors with codes for unknown or malformed flags: a usage mistake too.
    const code = (error as { code?: string }).code ?? '';
    if (error instanceof UsageError || code.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`storefront-contract ${name}: ${(error as Error).message.replace(/\s*\n\s*/g, ' ').replace(/\.$/, '')}; see storefront-contract ${name} --help\n`);
      return 2;
    }
    process.stderr.write(`storefront-contract ${name}: ${(error as Error).message ?? error}\n`);
    return 1;
  }
}
