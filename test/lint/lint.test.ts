// `npm run lint -- <fixture>` on fixture specs: the clean fixture passes, and each bad fixture breaks
// one rule (one per file in lint/rules/, plus the two configurable rules of redocly.yaml) and must fail
// naming that rule, the file and the line. Runs the real script, so it also proves the CLI wiring.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';

const fixtures = path.join(repoRoot, 'test/lint/fixtures');
const rel = (f: string) => path.relative(repoRoot, path.join(fixtures, f));

function lint(files: string[], env: NodeJS.ProcessEnv = {}) {
  const { GITHUB_ACTIONS: _omit, ...base } = process.env; // the default format must not depend on where tests run
  return run(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'scripts/lint.ts', ...files], {
    cwd: repoRoot,
    env: { ...base, ...env },
  });
}

// [rule, bad fixture, file:line the error must point at]
const rules: [string, string, string][] = [
  ['contract/response-envelope', 'bad-response-envelope.yaml', `${rel('bad-response-envelope.yaml')}:31`],
  ['contract/response-named-examples', 'bad-response-named-examples.yaml', `${rel('bad-response-named-examples.yaml')}:33`],
  ['contract/contract-source-value', 'bad-contract-source-value.yaml', `${rel('bad-contract-source-value.yaml')}:24`],
  ['contract/schema-title-matches-file', 'bad-schema-title-matches-file.yaml', `${rel('components/schemas/CountryListing.yaml')}:1`],
  ['contract/portable-pattern', 'bad-portable-pattern.yaml', `${rel('bad-portable-pattern.yaml')}:32`],
  ['rule/operation-id-camel-case', 'bad-operation-id-camel-case.yaml', `${rel('bad-operation-id-camel-case.yaml')}:20`],
  ['rule/schema-title-pascal-case', 'bad-schema-title-pascal-case.yaml', `${rel('bad-schema-title-pascal-case.yaml')}:56`],
];

// One lint run over every bad fixture (and one more under GitHub Actions) instead of one per rule: each
// problem is a block starting `[n] file:line`, so a rule is judged on its own fixture's block.
const badFixtures = [...new Set(rules.map(([, fixture]) => rel(fixture)))];
const everyBad = [...badFixtures, rel('bad-asyncapi.yaml')];
let plain: Awaited<ReturnType<typeof lint>>;
let annotated: Awaited<ReturnType<typeof lint>>;
beforeAll(async () => {
  // The annotated run needs one OpenAPI and one AsyncAPI problem: the format is what it checks.
  [plain, annotated] = await Promise.all([lint(everyBad), lint([rel('bad-contract-source-value.yaml'), rel('bad-asyncapi.yaml')], { GITHUB_ACTIONS: 'true' })]);
});

function blocks(output: string): string[] {
  return output.split(/^(?=\[\d+\] )/m);
}

describe('npm run lint on fixtures', () => {
  it('passes the good fixture (0 errors, 0 warnings)', async () => {
    const r = await lint([rel('good.yaml')]);
    expect(r.code, r.output).toBe(0);
    expect(r.stdout).toContain('all documents clean');
  });

  it('has one test per rule file in lint/rules/', async () => {
    const files = (await readdir(path.join(repoRoot, 'lint/rules'))).filter((f) => f !== 'schema-shape.js'); // a helper, not a rule
    const tested = rules.filter(([rule]) => rule.startsWith('contract/')).map(([rule]) => `${rule.slice('contract/'.length)}.js`);
    expect(tested.sort()).toEqual(files.sort());
  });

  it('fails when any fixture is bad', () => {
    expect(plain.code, plain.output).toBe(1);
  });

  it.each(rules)('%s fails %s with file and line', (rule, _fixture, where) => {
    const block = blocks(plain.output).find((b) => b.startsWith(`[`) && b.includes(`] ${where}:`));
    expect(block, `no problem reported at ${where}`).toBeDefined();
    expect(block).toContain(`${rule} rule`);
  });

  it('fails a broken AsyncAPI fixture with file and line', () => {
    expect(plain.output).toContain(path.join(fixtures, 'bad-asyncapi.yaml'));
    expect(plain.output).toMatch(/\b17:13\s+error\b.*operations\.deliver\.action/);
  });

  it('writes GitHub annotations under GitHub Actions', () => {
    expect(annotated.code, annotated.output).toBe(1);
    expect(annotated.stdout).toMatch(new RegExp(`::error title=contract/contract-source-value,file=${rel('bad-contract-source-value.yaml').replace(/\//g, '\\/')},line=24`));
  });

  it('writes GitHub annotations for the AsyncAPI document too', () => {
    expect(annotated.stdout).toMatch(new RegExp(`::error file=${rel('bad-asyncapi.yaml').replace(/\//g, '\\/')},line=17,col=13,title=asyncapi-document-resolved::.*action`));
  });
});
