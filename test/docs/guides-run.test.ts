// The guides run as tests: every fenced block marked `sh runnable` or `ts runnable` in docs/guides/*.md
// (docs/README.md describes the marker) is executed against a sandbox this file starts on a free loopback
// port, and the suite fails when one breaks. Blocks read the sandbox's address from STOREFRONT_URL, the
// store API key from STOREFRONT_API_KEY and a free port for a receiver from PORT, as the guides say.
// `npx storefront-contract` resolves to this repository's CLI sources through a shim on PATH, and ts
// blocks run with `node --conditions=sfc-source --import tsx`, so `storefront-contract/...` imports
// resolve to the sources. The ts blocks, and the client typing claims of the quickstart
// (client-typing.ts), are also type-checked, by tsc in a child process.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { createWorkbench, sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { run } from '../helpers/run.js';
import { hangGuard } from '../helpers/hang-guard.js';

const guidesDir = path.join(repoRoot, 'docs/guides');
const RUNNABLE = /^```(sh|ts) runnable[^\n]*\n([\s\S]*?)^```[ \t]*$/gm;

interface Block {
  /** `quickstart.md:42` (the line of the opening fence). */
  name: string;
  lang: 'sh' | 'ts';
  code: string;
}

async function runnableBlocks(): Promise<Block[]> {
  const blocks: Block[] = [];
  for (const file of (await readdir(guidesDir)).filter((f) => f.endsWith('.md')).sort()) {
    const text = await readFile(path.join(guidesDir, file), 'utf8');
    for (const m of text.matchAll(RUNNABLE)) {
      const line = text.slice(0, m.index).split('\n').length;
      blocks.push({ name: `${file}:${line}`, lang: m[1] as 'sh' | 'ts', code: m[2] });
    }
  }
  return blocks;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const blocks = await runnableBlocks();
// Safety nets for a loaded machine, not speed checks: at load 35 on 2 cores, tsc over the blocks and the
// certify block each ran past the former 120 s. A block's run stops (its group killed) before its test's
// limit, so a time-out reads as one, with the block's output.
const RUN_LIMIT_MS = hangGuard(280_000);
const TEST_LIMIT_MS = hangGuard(300_000);
// Inside the repository, so the package's self-reference (`storefront-contract/...`) resolves.
const workDir = path.join(repoRoot, 'test-artifacts', `guides-${process.pid}`);
let workbench: Workbench;
let shimDir: string;

beforeAll(async () => {
  await mkdir(workDir, { recursive: true });
  shimDir = await mkdtemp(path.join(os.tmpdir(), 'sfc-guides-bin-'));
  const shim = path.join(shimDir, 'storefront-contract');
  await writeFile(shim, `#!/bin/sh\nexec "${process.execPath}" --conditions=sfc-source --import tsx "${path.join(repoRoot, 'cli/storefront-contract.ts')}" "$@"\n`);
  await chmod(shim, 0o755);
  workbench = await createWorkbench({ port: 0, quiet: true, webhooks: { timeScale: 0.01 } });
});

afterAll(async () => {
  await workbench?.close();
  await rm(workDir, { recursive: true, force: true });
  if (shimDir) await rm(shimDir, { recursive: true, force: true });
});

/**
 * Blocks that certify demo-store or change its world through the back office run one at a time: a
 * certification judges a store nobody changes while it runs (a product added between two pages of a list
 * changes the totals it compares), as on a reader's own machine. The other blocks run beside them.
 */
const CHANGES_OR_CERTIFIES_DEMO = /createBackOfficeClient\(\{[^}]*storeId: 'demo-store'|\bcertify\b[^\n]*--store-id demo-store|__simulator\/stores\/demo-store\b(?!\/(?:world|keys)\b)/;
let demoStoreTurn: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const mine = demoStoreTurn.then(work, work);
  demoStoreTurn = mine.catch(() => undefined);
  return mine;
}

async function execute(block: Block, index: number) {
  return CHANGES_OR_CERTIFIES_DEMO.test(block.code) ? inTurn(() => executeNow(block, index)) : executeNow(block, index);
}

async function executeNow(block: Block, index: number) {
  const env = {
    ...process.env,
    STOREFRONT_URL: workbench.url,
    // demo-store's own key, as the banner prints it (the sandbox opens each store with its own key only).
    STOREFRONT_API_KEY: sandboxApiKey('demo-store'),
    PORT: String(await freePort()),
    PATH: `${shimDir}${path.delimiter}${process.env.PATH}`,
  };
  const file = path.join(workDir, `block-${index}.${block.lang === 'sh' ? 'sh' : 'mts'}`);
  await writeFile(file, block.code);
  // Each block leads its own process group, killed whole when the block ends, passed or failed: a server
  // it started with `&` never outlives it (nor holds the output pipes open after a failed command).
  return block.lang === 'sh'
    ? run('bash', ['-euo', 'pipefail', file], { cwd: repoRoot, env, group: true, timeoutMs: RUN_LIMIT_MS })
    : run(process.execPath, ['--conditions=sfc-source', '--import', 'tsx', file], { cwd: repoRoot, env, group: true, timeoutMs: RUN_LIMIT_MS });
}

/**
 * What a failed block's certificates say (a block may send the certifier's output to /dev/null, as a script
 * would): the rules that did not pass in each report.json under a --report-dir it names, with their first
 * findings, and the report's summaries and notes.
 */
async function reportsOf(block: Block): Promise<string> {
  const dirs = [...block.code.matchAll(/--report-dir\s+(\S+)/g)].map((m) => path.resolve(repoRoot, m[1]!.replace(/^["']|["']$/g, '')));
  const parts: string[] = [];
  for (const dir of dirs) {
    try {
      const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as { verdict?: string; summary?: unknown; exchangeSummary?: unknown; notes?: unknown; rules?: Array<{ id: string; status: string; skipped?: string; findings?: unknown[] }> };
      const notPassed = (report.rules ?? []).filter((rule) => rule.status !== 'passed').map((rule) => ({ id: rule.id, status: rule.status, skipped: rule.skipped, findings: (rule.findings ?? []).slice(0, 3) }));
      // A verdict with no failed rule (an exchange that never completed, a note) shows in the summaries and notes.
      const context = JSON.stringify({ summary: report.summary, exchanges: report.exchangeSummary, notes: report.notes });
      parts.push(`${path.relative(repoRoot, dir)}/report.json: ${report.verdict}; not passed: ${JSON.stringify(notPassed).slice(0, 4000)}; ${context.slice(0, 4000)}`);
    } catch (e) {
      parts.push(`${path.relative(repoRoot, dir)}/report.json: not read (${(e as Error).message})`);
    }
  }
  return parts.length ? `\n--- reports ---\n${parts.join('\n')}` : '';
}

/** Ids of the sandbox's seeded kinds (products, variants, carts, customers, groups, locations, categories) and order numbers. */
const SEEDED_ID = /\b(?:(?:prd|var|crt|cst|cgrp|cg|loc|cat)_[A-Za-z0-9_]+|SO-\d{4}-\d{6})\b/g;
/** Ids a guide names though the seeded world lacks them, with where and why. */
const NOT_SEEDED: Record<string, string> = {
  cst_B1FMBH: 'sandbox.md: the customer its POST /customers creates (ids created at run time differ)',
  'SO-2026-001843': "sandbox.md: the order its back-office POST /orders places",
  var_missing: "quickstart.md: an unknown variant on purpose, for the 404's envelope",
  crt_DEMO1: "sandbox.md ('Set up state'): the id its back-office POST /carts gives the cart it creates",
  crt_SZS6DC: "sandbox.md ('Set up state'): a cart its back-office POST /carts creates (ids created at run time differ)",
  crt_DNRKD2: "sandbox.md ('Set up state'): a cart its typed-client example creates",
  cst_NOBODY: "sandbox.md ('Set up state'): an unknown customer on purpose, for the 400 naming the field",
  crt_NOPE00: "testing-with-the-sandbox.md: an unknown cart on purpose, for the 404",
  crt_HVRTMG: "agents.md: the cart its session's workbench_call createCart creates (ids created at run time differ)",
};

/** Every string in the seeded world of a store, as the back office exports it. */
async function worldStrings(store: string): Promise<Set<string>> {
  const strings = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') strings.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const resource of ['categories', 'products', 'customer-groups', 'customers', 'carts', 'orders', 'locations']) {
    const res = await fetch(`${workbench.url}/__simulator/stores/${store}/world/${resource}`);
    expect(res.status, resource).toBe(200);
    walk(await res.json());
  }
  return strings;
}

describe('runnable blocks of docs/guides', () => {
  it('finds blocks in every task guide', () => {
    const guides = new Set(blocks.map((b) => b.name.split(':')[0]));
    for (const guide of ['quickstart.md', 'receiving-webhooks.md', 'certification.md', 'reviewing-spec-changes.md']) expect([...guides]).toContain(guide);
  });

  it('run the customer-group examples', () => {
    const grouped = blocks.filter((b) => b.code.includes('x-customer-group-id')).map((b) => b.name.split(':')[0]);
    expect([...new Set(grouped)].sort()).toEqual(['pagination-sorting-customer-groups.md', 'sandbox.md']);
  });

  it('name only ids the sandbox knows (seeded in demo-store, or named on purpose in NOT_SEEDED)', async () => {
    const known = await worldStrings('demo-store');
    const unknown: string[] = [];
    for (const file of (await readdir(guidesDir)).filter((f) => f.endsWith('.md'))) {
      const text = await readFile(path.join(guidesDir, file), 'utf8');
      for (const m of text.matchAll(SEEDED_ID)) {
        if (!known.has(m[0]) && !(m[0] in NOT_SEEDED)) unknown.push(`${file}:${text.slice(0, m.index).split('\n').length} ${m[0]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});

// In parallel: each block gets its own token and port, and mostly waits on its child processes.
describe.concurrent('runnable blocks, run', () => {
  // tsc in its own process: in this one it would stall the event loop the sandbox answers on.
  it('type-checks the ts blocks and the typing claims of the quickstart', async () => {
    const typed = blocks.map((b, i) => ({ block: b, file: path.join(workDir, `typed-${i}.mts`) })).filter(({ block }) => block.lang === 'ts');
    for (const { block, file } of typed) await writeFile(file, `${block.code}\nexport {};\n`);
    const tsconfig = path.join(workDir, 'tsconfig.json');
    const include = [...typed.map(({ file }) => file), path.join(repoRoot, 'test/docs/client-typing.ts')];
    await writeFile(tsconfig, JSON.stringify({ extends: path.join(repoRoot, 'tsconfig.json'), compilerOptions: { noEmit: true }, include }));
    const r = await run(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', tsconfig, '--pretty', 'false'], { cwd: repoRoot, timeoutMs: RUN_LIMIT_MS });
    // Name each guide block by its guide and line instead of its temporary file.
    const report = typed.reduce((text, { block, file }) => text.replaceAll(path.relative(repoRoot, file), block.name), r.output);
    expect(report.trim()).toBe('');
    expect(r.code, r.output).toBe(0);
  }, TEST_LIMIT_MS);

  it.each(blocks.map((b, i) => [b.name, b, i] as const))('%s', async (_name, block, index) => {
    const r = await execute(block, index);
    expect(r.code, `${block.name} failed (exit ${r.code}):\n${block.code}\n--- output ---\n${r.output}${r.code === 0 ? '' : await reportsOf(block)}`).toBe(0);
  }, TEST_LIMIT_MS);

});
