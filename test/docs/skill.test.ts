// The agent skill the tools package ships (packages/storefront-contract-tools/skills/storefront-contract/SKILL.md,
// issue 41): its frontmatter is the Agent Skills format's, every tool, operation id, command flag and npm
// script it names exists, its links resolve inside the package, and the package's file list packs it.
// (test/package/installed.test.ts checks it is in the packed tarball, with the install tests.)
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { marked } from 'marked';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import * as library from 'storefront-contract';
import { adminOperations } from '../../generated/operations/admin.js';
import { storefrontOperations } from '../../generated/operations/storefront.js';
import { workbenchOperations } from '../../generated/operations/workbench.js';
import { skillFile } from '../../scripts/docs/llms.js';
import { agentToolNames } from '../../scripts/agent-tools.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { runCli } from '../helpers/cli-in-process.js';
import { hangGuard } from '../helpers/hang-guard.js';
import { publishedPackage, TOOLS } from '../helpers/manifests.js';
import { run } from '../helpers/run.js';
import { brokenLinks } from '../package/shipped-docs.js';

/** The tools `storefront-contract mcp` serves, read from the tools themselves; `clone`: only in a clone of the repository. */
const AGENT_TOOLS = await agentToolNames();
const allTools = [...AGENT_TOOLS.everywhere, ...AGENT_TOOLS.clone];

const tools = publishedPackage(TOOLS);
const file = path.join(tools.dir, skillFile);
const text = await readFile(file, 'utf8');
const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
const body = front ? text.slice(front[0].length) : text;

const contractOps = new Set([...Object.keys(storefrontOperations), ...Object.keys(adminOperations)]);
const workbenchOps = new Set(Object.keys(workbenchOperations));

interface Token {
  type: string;
  text?: string;
  tokens?: Token[];
  items?: Token[];
}

/** Every code span and fenced block of the body (marked's lexer: what a reader sees as code). */
function code(): string[] {
  const found: string[] = [];
  const walk = (tokens: Token[] | undefined) => {
    for (const t of tokens ?? []) {
      if (t.type === 'code' || t.type === 'codespan') found.push(t.text!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&'));
      walk(t.tokens);
      walk(t.items);
    }
  };
  walk(marked.lexer(body) as Token[]);
  return found;
}

describe('the skill file of the tools package (issue 41)', () => {
  it('has the Agent Skills frontmatter: name (its folder\'s) and a description of what it does and when to use it', () => {
    expect(front, 'YAML frontmatter between --- lines').not.toBeNull();
    const data = parse(front![1]!) as Record<string, unknown>;
    expect(Object.keys(data).filter((k) => !['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'].includes(k)), 'fields outside the format').toEqual([]);
    expect(data.name).toBe('storefront-contract');
    expect(data.name).toBe(path.basename(path.dirname(file)));
    expect(String(data.name)).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(typeof data.description).toBe('string');
    const description = String(data.description);
    expect(description.length).toBeGreaterThan(100);
    expect(description.length).toBeLessThanOrEqual(1024);
    expect(description).toMatch(/\bUse it when\b/);
    expect(body).toMatch(/^\s*# /);
  });

  it('names only the MCP tools the server has, and every one of them', () => {
    expect(AGENT_TOOLS.everywhere).toContain('sandbox_call');
    expect(AGENT_TOOLS.clone).toEqual(['contract_diff', 'contract_lint']);
    const named = new Set(text.match(/\b(?:contract|sandbox|workbench)_[a-z_]+\b/g));
    expect([...named].filter((t) => !allTools.includes(t)), 'tools that do not exist').toEqual([]);
    expect(allTools.filter((t) => !text.includes(`\`${t}\``)), 'tools the skill does not name').toEqual([]);
    expect(text).toContain('`npx storefront-contract mcp`');
  });

  it('names only real operation ids (or exports of the library), each with the tool that calls it', () => {
    // Keys of JSON (the MCP client's configuration, `"mcpServers":`) are no operation's.
    const camel = new Set(code().flatMap((c) => c.replace(/"[A-Za-z]+"\s*:/g, '').match(/\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/g) ?? []));
    const exported = new Set(Object.keys(library));
    const unknown = [...camel].filter((w) => !contractOps.has(w) && !workbenchOps.has(w) && !exported.has(w));
    expect(unknown, 'neither an operationId of spec/openapi/*.yaml or spec/workbench/openapi.yaml nor an export of storefront-contract').toEqual([]);
    expect([...camel].filter((w) => contractOps.has(w) || workbenchOps.has(w)).length, 'operation ids named').toBeGreaterThan(15);
    // `sandbox_call` `x`: a storefront or Admin operation; `workbench_call` `x`: a workbench one.
    const calls = [...text.matchAll(/`(sandbox_call|workbench_call)` `([A-Za-z]+)`/g)];
    expect(calls.length).toBeGreaterThan(3);
    for (const [, tool, op] of calls) expect((tool === 'sandbox_call' ? contractOps : workbenchOps).has(op!), `${tool} ${op}`).toBe(true);
    // The workflows the issue names, with the ids that exist.
    for (const id of ['listProducts', 'createWebhook', 'raiseEvent', 'listAttempts', 'resetStore']) expect(text, id).toContain(`\`${id}\``);
  });

  it('gives only flags the commands have (their --help) and npm scripts the repository has', async () => {
    const spans = code().flatMap((c) => c.split('\n'));
    const helps = new Map<string, string>();
    const help = async (argv: string[]) => {
      const key = argv.join(' ');
      if (!helps.has(key)) {
        const r = await runCli([...argv, '--help']);
        expect(r.code, `storefront-contract ${key} --help`).toBe(0);
        helps.set(key, r.output);
      }
      return helps.get(key)!;
    };
    const flagsOf = (s: string) => (s.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? []).filter((f) => f !== '--help');
    /** The help names the flag itself, not a longer one it begins (`--store` in `--store-id`). */
    const names = (help: string, flag: string) => new RegExp(`(?<![\\w-])${flag}(?![\\w-])`).test(help);
    const wrong: string[] = [];
    let checked = 0;
    const scripts = (JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const standalone: string[] = [];
    for (const line of spans) {
      const command = /\bstorefront-contract ([a-z][a-z-]*)(?: (sender|receiver|trigger|listen|events|merge)\b)?(.*)$/.exec(line);
      const script = /\bnpm run ([\w:-]+)(.*)$/.exec(line);
      if (command) {
        const [, cmd, sub, rest] = command;
        const flags = flagsOf(rest!);
        if (!flags.length) continue;
        const text = (await help([cmd!])) + (sub ? await help([cmd!, sub]) : '');
        for (const f of flags) (names(text, f) ? checked++ : wrong.push(`storefront-contract ${cmd}${sub ? ` ${sub}` : ''} ${f}`));
      } else if (script) {
        const [, name, rest] = script;
        if (!scripts[name!]) wrong.push(`npm run ${name}: no such script in package.json`);
        const flags = flagsOf(rest!.replace(/^\s*--(?=\s|$)/, ''));
        if (!flags.length) continue;
        const [tool, ...args] = scripts[name!]!.split(/\s+/);
        expect(tool).toBe('tsx');
        const r = await run(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), ...args, '--help'], { cwd: repoRoot });
        for (const f of flags) (names(r.output, f) ? checked++ : wrong.push(`npm run ${name} -- ${f}`));
      } else if (!/^\s*npm /.test(line)) standalone.push(...flagsOf(line));
    }
    // A flag in a code span of its own (`--port`) is one of the commands the skill names.
    const every = [...helps.values()].join('\n') + (await help(['mock'])) + (await help(['certify']));
    for (const f of standalone) (names(every, f) ? checked++ : wrong.push(`${f} (no command the skill names has it)`));
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(8);
  }, hangGuard(60_000));

  it('links only files the tools package ships', async () => {
    expect(await brokenLinks(tools.dir, skillFile)).toEqual([]);
    const links = [...body.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((h) => !/^[a-z]+:/i.test(h));
    expect(links.length).toBeGreaterThan(5);
    for (const href of links) {
      const inPackage = path.posix.normalize(path.posix.join(path.posix.dirname(skillFile), href.split('#')[0]!));
      expect(tools.manifest.files.some((f) => inPackage === f || inPackage.startsWith(`${f}/`)), `${href} -> ${inPackage}, in no "files" entry`).toBe(true);
    }
  });

  it('is packed: the manifest\'s files name it, in the package folder itself (where npm run build stages it from)', async () => {
    expect(tools.manifest.files.some((f) => skillFile === f || skillFile.startsWith(`${f}/`))).toBe(true);
    // scripts/build.ts copies a `files` entry from the package folder when it is a real path there.
    expect((await lstat(path.join(tools.dir, skillFile.split('/')[0]!))).isSymbolicLink()).toBe(false);
    const packed = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: tools.dir });
    expect(packed.code, packed.output).toBe(0);
    const [report] = JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>;
    expect(report!.files.map((f) => f.path)).toContain(skillFile);
  }, hangGuard(60_000));
});
