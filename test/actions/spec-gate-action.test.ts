// The spec-gate Action (.github/actions/spec-gate), its steps run as a runner would run them (harness.ts)
// in this repository: lint, the breaking-change diff against a base, the docs build. The base is a commit
// made for the test whose spec has one more response property (Country.region), so the current spec
// removes it: a breaking change. Its objects go to a temporary object directory that git reads as an
// alternate, so the repository itself gets nothing written. The gate reports the change in the job
// summary, annotates it, fails that step, still builds the docs, and fails the job.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { readAction, runAction, type ActionRun } from './harness.js';
import { hangGuard } from '../helpers/hang-guard.js';

const GATE = path.join(repoRoot, '.github/actions/spec-gate/action.yml');
const COUNTRY = 'spec/openapi/components/schemas/Country.yaml';

let temp: string;
let objects: string;
let base: string;
let run: ActionRun;
let docsOut: string;

/** A commit whose spec has Country.region, written to `objects` only. */
function breakingBase(): string {
  const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const env = {
    ...process.env,
    GIT_OBJECT_DIRECTORY: objects,
    GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(common, 'objects'),
    GIT_INDEX_FILE: path.join(temp, 'index'),
    GIT_AUTHOR_NAME: 'spec-gate test',
    GIT_AUTHOR_EMAIL: 'spec-gate@example.invalid',
    GIT_COMMITTER_NAME: 'spec-gate test',
    GIT_COMMITTER_EMAIL: 'spec-gate@example.invalid',
  };
  const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: repoRoot, env, input, encoding: 'utf8' }).trim();
  const country = `${readFileSync(path.join(repoRoot, COUNTRY), 'utf8').trimEnd()}\n  region:\n    type: string\n`;
  const blob = git(['hash-object', '-w', '--stdin'], country);
  git(['read-tree', 'HEAD']);
  git(['update-index', '--cacheinfo', `100644,${blob},${COUNTRY}`]);
  return git(['commit-tree', git(['write-tree']), '-p', 'HEAD', '-m', 'spec-gate test: a base with Country.region']);
}

beforeAll(async () => {
  temp = mkdtempSync(path.join(os.tmpdir(), 'sfc-spec-gate-'));
  objects = path.join(temp, 'objects');
  mkdirSync(objects);
  base = breakingBase();
  docsOut = path.join(temp, 'site');
  run = await runAction(GATE, {
    inputs: { 'base-ref': base, 'docs-out': docsOut },
    env: { GIT_ALTERNATE_OBJECT_DIRECTORIES: objects },
    workspace: repoRoot,
  });
}, hangGuard(120_000));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const step = (id: string) => run.steps.find((s) => s.id === id)!;

describe('the spec-gate Action, its steps run in this repository', () => {
  it('lints: clean, its result in the summary', () => {
    expect(step('lint').code, step('lint').output).toBe(0);
    expect(run.summary).toContain('### ✅ Lint: clean\n\n```text\nlint: redocly lint spec/openapi/storefront.yaml spec/openapi/admin.yaml spec/workbench/openapi.yaml\n');
    expect(run.summary).toContain('lint: all documents clean (0 errors, 0 warnings)');
  });

  it('diffs against the base: the breaking change annotated and in the summary, the step failed', () => {
    const diff = step('diff');
    expect(diff.code).toBe(1);
    expect(run.outputs.diff.breaking).toBe('true');
    expect(run.actionOutputs.breaking).toBe('true');
    expect(diff.output).toMatch(/^::error file=spec\/openapi\/storefront\.yaml,title=Breaking change%3A components\/schemas\/Country\.yaml::properties\/region: Property `region` was removed/m);
    const section = run.summary.slice(run.summary.indexOf('### ❌ Breaking changes'));
    expect(section).toMatch(new RegExp(`^### ❌ Breaking changes against \`${base}\`: bump info.version to a new major, or undo them\n\n\`\`\`text\n`));
    expect(section).toContain('Property `region` was removed.');
    expect(section).toContain('affects 1 operation: GET /common/countries');
    expect(section).not.toMatch(/^::/m);
  });

  it('still builds the docs after the failed diff, and the job fails', () => {
    expect(step('docs').skipped).toBe(false);
    expect(step('docs').code, step('docs').output).toBe(0);
    expect(existsSync(path.join(docsOut, 'index.html'))).toBe(true);
    expect(run.summary).toContain(`### ✅ Docs: built in \`${docsOut}\``);
    expect(run.failed).toBe(true);
  });

  it('takes no secret and writes nothing into the repository', () => {
    expect(Object.keys(readAction(GATE).inputs)).toEqual(['base-ref', 'docs-out']);
    expect(execFileSync('git', ['status', '--porcelain', '--', 'spec', 'docs/guides'], { cwd: repoRoot, encoding: 'utf8' })).toBe('');
    expect(() => execFileSync('git', ['cat-file', '-e', base], { cwd: repoRoot, stdio: 'ignore', env: { ...process.env, GIT_ALTERNATE_OBJECT_DIRECTORIES: '' } })).toThrow();
  });
});
