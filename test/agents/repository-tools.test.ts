// The agent tools only a clone has (scripts/agent-tools.ts), served by the clone's bin: contract_diff and
// contract_lint, through the toolbox's call (validated as tools/call is), on the repository's own files.
// Each fails when the document is broken and passes when it is not; paths outside the clone are refused.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { repositoryTools } from '../../scripts/agent-tools.js';
import { agentToolbox, SandboxLink, type AgentToolbox } from '../../workbench/agents/index.js';

const scratch = path.join(repoRoot, 'tmp', `agent-tools-${process.pid}`);
let toolbox: AgentToolbox;

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true });
  const link = new SandboxLink({ fetch: () => Promise.reject(new Error('not called')), origin: () => 'http://127.0.0.1:1' });
  toolbox = agentToolbox(await repositoryTools(link));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(name: string, args: Record<string, unknown>): Promise<any> {
  const result = await toolbox.call(name, args);
  if (result.isError) return { error: (result.content as Array<{ text: string }>)[0].text };
  return result.structuredContent;
}

/**
 * The storefront document with one line changed, in the scratch folder inside the repository (never in
 * spec/, which other tests walk), its $refs pointed back at spec/openapi/.
 */
function variant(name: string, from: string, to: string): string {
  const source = path.join(repoRoot, 'spec/openapi/storefront.yaml');
  const text = readFileSync(source, 'utf8');
  expect(text).toContain(from);
  const file = path.join(scratch, `${name}.yaml`);
  const back = path.relative(scratch, path.join(repoRoot, 'spec/openapi'));
  writeFileSync(file, text.replace(from, to).replaceAll('$ref: paths/', `$ref: ${back}/paths/`));
  return file;
}

describe('contract_diff', () => {
  it('rates a removed operation as breaking, and the same document as no change', async () => {
    const before = path.join(repoRoot, 'spec/openapi/storefront.yaml');
    const after = variant('no-coupons', '  /pos/carts/{id}/evaluate-coupons:\n    $ref: paths/storefront/pos_carts_@id_evaluate-coupons.yaml\n', '');
    try {
      const breaking = await run('contract_diff', { files: [before, after] });
      expect(breaking.ok).toBe(false);
      expect(breaking.exit_code).toBe(1);
      expect(breaking.lines.join('\n')).toMatch(/evaluateCartCoupons|evaluate-coupons/);
      expect(breaking.command).toMatch(/^npm run diff -- /);
      const same = await run('contract_diff', { files: [before, before] });
      expect(same.ok).toBe(true);
    } finally {
      rmSync(after, { force: true });
    }
  }, 180_000);

  it.each([
    ['both base and files', { base: 'HEAD', files: ['a', 'b'] }, /either base .* or files/],
    ['neither', {}, /either base .* or files/],
    ['an option for a ref', { base: '--output=/etc/x' }, /base: must match pattern/],
    ['a range for a ref', { base: 'HEAD..main' }, /base: must match pattern/],
    ['a file outside the clone', { files: ['/etc/passwd', 'spec/openapi/storefront.yaml'] }, /outside the repository/],
  ])('refuses %s', async (_name, args, message) => {
    expect((await run('contract_diff', args)).error).toMatch(message);
  });
});

describe('contract_lint', () => {
  it('passes the storefront document and fails one with a broken operation', async () => {
    // The same document, moved: the check of the broken one below fails for its change alone.
    const moved = variant('clean', 'openapi: 3.1', 'openapi: 3.1');
    const clean = await run('contract_lint', { files: [path.relative(repoRoot, moved)] });
    expect(clean, clean.lines?.join('\n')).toMatchObject({ ok: true, exit_code: 0 });
    expect(clean.command).toBe(`npm run lint -- ${path.relative(repoRoot, moved)}`);
    const broken = variant('broken', '  /pos/carts/{id}/evaluate-coupons:', '  /pos/carts/{id}/Evaluate_Coupons:');
    try {
      const failed = await run('contract_lint', { files: [path.relative(repoRoot, broken)] });
      expect(failed.ok).toBe(false);
      expect(failed.lines.join('\n')).toMatch(/paths-kebab-case[\s\S]*problems found/);
    } finally {
      rmSync(broken, { force: true });
    }
  }, 180_000);

  it('refuses a file outside the clone', async () => {
    expect((await run('contract_lint', { files: ['../../etc/passwd'] })).error).toMatch(/outside the repository/);
  });
});
