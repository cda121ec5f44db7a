// The agent tools only a clone of the contract's repository has, as `changelog` is: the breaking-change
// diff (scripts/diff/, which reads spec/'s git history and runs the diff engines of the dev dependencies)
// and lint (scripts/lint.ts: Redocly and the AsyncAPI CLI). The clone's bin (bin/clone.ts) registers them
// with the CLI before it runs, so `storefront-contract mcp` and /mcp of `npm start` serve them in a clone;
// the installed tools package has neither. Build time only: nothing at run time imports this file.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { objectSchema, ToolError, type AgentTool, type AgentToolFactory } from '../workbench/agents/index.js';
import { repoRoot } from './lib/repo.js';

/** Lines of a report an agent gets: the first ones, then how many more. */
const MAX_LINES = 100;
/** A line's characters (100 lines of 120: within a result's 16 KB). */
const MAX_LINE_CHARS = 120;
const LINT_TIMEOUT_MS = 180_000;

/** A git ref the diff may be given: no option (`-x`), no range (`..`), no whitespace. */
const GIT_REF = '^(?!-)(?!.*\\.\\.)[A-Za-z0-9._/@^~-]{1,100}$';

function cutLines(text: string): { lines: string[]; more_lines?: number } {
  // eslint-disable-next-line no-control-regex
  const lines = text
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (l.length <= MAX_LINE_CHARS ? l : `${l.slice(0, MAX_LINE_CHARS)}…`));
  return lines.length <= MAX_LINES ? { lines } : { lines: lines.slice(0, MAX_LINES), more_lines: lines.length - MAX_LINES };
}

/** A path inside the repository, or a refusal naming it (the tools read nothing outside the clone). */
function insideRepo(file: string): string {
  const resolved = path.resolve(repoRoot, file);
  if (resolved !== repoRoot && !resolved.startsWith(`${repoRoot}${path.sep}`)) throw new ToolError(`"${file.slice(0, 120)}" is outside the repository (${repoRoot}): give a path inside it`);
  return resolved;
}

const REPORT = objectSchema(
  {
    ok: { type: 'boolean' },
    exit_code: { type: 'integer' },
    lines: { type: 'array', items: { type: 'string' } },
    more_lines: { type: 'integer' },
    command: { type: 'string', description: 'The same check on the command line.' },
  },
  ['more_lines'],
);

const diffTool: AgentTool = {
  name: 'contract_diff',
  title: 'Breaking changes between two contract versions',
  description:
    'Rate the contract\'s changes as breaking, non-breaking or docs-only (Redocly for OpenAPI, @asyncapi/diff for the webhooks), naming every operation or event a changed component reaches and the version bump needed: spec/ against a git ref (base: "origin/main"), or two document files of the repository. ok is false when a breaking change is not covered by a new major info.version. Run it before opening a pull request that changes spec/.',
  inputSchema: objectSchema(
    {
      base: { type: 'string', pattern: GIT_REF, description: 'A git ref to compare spec/ with (origin/main, a tag, HEAD~1).' },
      files: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 300 }, minItems: 2, maxItems: 2, description: 'Two documents (base, revision), paths inside the repository.' },
    },
    ['base', 'files'],
  ),
  outputSchema: REPORT,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input: { base?: string; files?: string[] }) {
    if ((input.base === undefined) === (input.files === undefined)) throw new ToolError('give either base (a git ref) or files (two documents), not both or neither');
    const argv = input.base !== undefined ? ['--base', input.base] : input.files!.map(insideRepo);
    const out: string[] = [];
    // Loaded when first used: the diff engines are heavy, and every command of the clone's bin loads this file.
    const { runDiff } = await import('./diff/cli.js');
    const code = await runDiff([...argv, '--format', 'text'], { out: (line) => out.push(line), err: (line) => out.push(line) });
    const shown = input.base !== undefined ? `--base ${input.base}` : input.files!.join(' ');
    return { ok: code === 0, exit_code: code, ...cutLines(out.join('\n')), command: `npm run diff -- ${shown}` };
  },
};

const lintTool: AgentTool = {
  name: 'contract_lint',
  title: 'Lint the contract',
  description:
    'Lint the contract\'s documents with the repository\'s own rules (Redocly for the OpenAPI documents and the recorded Arazzo workflows, the AsyncAPI CLI for the webhooks): every document, or the files given (paths inside the repository). ok is false on any error or warning. Takes about 10 to 30 seconds.',
  inputSchema: objectSchema({ files: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 300 }, minItems: 1, maxItems: 10 } }, ['files']),
  outputSchema: REPORT,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input: { files?: string[] }, signal?: AbortSignal) {
    const files = (input.files ?? []).map(insideRepo);
    // lint.ts is a command (it ends its process): run as one, its output captured.
    const args = ['--conditions=sfc-source', '--import', 'tsx', path.join(repoRoot, 'scripts/lint.ts'), ...files, '--format', 'stylish'];
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'], signal, timeout: LINT_TIMEOUT_MS });
      let output = '';
      child.stdout.on('data', (c) => (output += c));
      child.stderr.on('data', (c) => (output += c));
      child.once('error', reject);
      child.once('close', (exit) => resolve({ code: exit ?? 1, output }));
    });
    return { ok: code === 0, exit_code: code, ...cutLines(output), command: `npm run lint${files.length ? ` -- ${input.files!.join(' ')}` : ''}` };
  },
};

/** contract_diff and contract_lint: the clone's bin registers them (bin/clone.ts). */
export const repositoryTools: AgentToolFactory = () => [diffTool, lintTool];

/**
 * The names of the tools the MCP server serves, read from the tools themselves: `everywhere` (the installed
 * package: the workbench's own and certification's) and `clone` (these). What llms.txt and the skill's test
 * list; a tool added anywhere shows up in both.
 */
export async function agentToolNames(): Promise<{ everywhere: string[]; clone: string[] }> {
  const { createAgentToolbox, SandboxLink } = await import('../workbench/agents/index.js');
  const { checkingTools } = await import('../conformance/agents/certify-tool.js');
  const link = { fetch: () => Promise.reject(new Error('not called')), origin: () => 'http://127.0.0.1:1' };
  const everywhere = (await createAgentToolbox({ link, extraTools: [checkingTools] })).tools.map((t) => t.name);
  const clone = (await repositoryTools(new SandboxLink(link))).map((t) => t.name);
  return { everywhere, clone };
}
