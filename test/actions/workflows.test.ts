// The workflow files a partner copies or runs, parsed (not grepped): this repository's workflows, the
// matrix example (docs/ci/), the composite actions, and every YAML block of the guides. What GitHub
// would refuse or silently skip is held here: a JUnit reporter that creates a check run needs
// `checks: write` in the job's permissions; upload-artifact 4.4+ skips hidden files and folders unless
// `include-hidden-files: true`, and fails with 409 on a re-run unless `overwrite: true`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { repoRoot } from '../../scripts/lib/repo.js';
import { evaluateText, readAction } from './harness.js';

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: string | Record<string, string>;
  steps?: Step[];
}
/** One place steps are written: a workflow (with jobs), an action (with steps), or a guide's block of steps. */
interface Source {
  where: string;
  permissions?: string | Record<string, string>;
  jobs: Record<string, Job>;
  /** Steps outside any job (an action's, or a guide's fragment). */
  steps: Step[];
  /** Evaluates `${{ }}` in a value as far as the file lets us know (an action's input defaults). */
  evaluate: (text: string) => string;
}

const files = (dir: string, pattern: RegExp) =>
  readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).filter((e) => e.isFile() && pattern.test(e.name)).map((e) => path.join(dir, e.name));

function sources(): Source[] {
  const out: Source[] = [];
  const keep = (text: string) => text;
  for (const file of [...files('.github/workflows', /\.ya?ml$/), ...files('docs/ci', /\.ya?ml$/)]) {
    const doc = YAML.parse(readFileSync(path.join(repoRoot, file), 'utf8'));
    out.push({ where: file, permissions: doc.permissions, jobs: doc.jobs ?? {}, steps: [], evaluate: keep });
  }
  for (const dir of readdirSync(path.join(repoRoot, '.github/actions'))) {
    const file = path.join('.github/actions', dir, 'action.yml');
    let action;
    try {
      action = readAction(path.join(repoRoot, file));
    } catch {
      continue; // lib/ holds the actions' shared script, no action.yml
    }
    const inputs = Object.fromEntries(Object.entries(action.inputs ?? {}).map(([k, v]) => [k, String(v.default ?? '')]));
    const ctx = { inputs, steps: {}, env: {}, github: {}, runner: { temp: '/runner-temp', os: 'Linux' }, status: { failed: false } };
    out.push({ where: file, jobs: {}, steps: action.runs.steps, evaluate: (text) => evaluateText(text, ctx) });
  }
  for (const file of files('docs/guides', /\.md$/)) {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    for (const [i, block] of [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```/gm)].entries()) {
      const doc = YAML.parse(block[1]);
      const where = `${file} (YAML block ${i + 1})`;
      if (Array.isArray(doc)) out.push({ where, jobs: {}, steps: doc, evaluate: keep });
      else if (doc?.jobs) out.push({ where, permissions: doc.permissions, jobs: doc.jobs, steps: [], evaluate: keep });
    }
  }
  return out;
}

const all = sources();
const everyStep = (s: Source) => [...s.steps.map((step) => ['', step] as const), ...Object.entries(s.jobs).flatMap(([id, job]) => (job.steps ?? []).map((step) => [id, step] as const))];
const uploads = all.flatMap((s) => everyStep(s).filter(([, step]) => step.uses?.startsWith('actions/upload-artifact@')).map(([job, step]) => ({ source: s, job, step })));

/** Reporters that publish results as a check run (the GitHub Checks API): their job needs checks: write. */
const CHECK_RUN_REPORTERS = /^(mikepenz\/action-junit-report|dorny\/test-reporter|EnricoMi\/publish-unit-test-result-action)@/;

/** Whether a path (after what can be evaluated) has a hidden segment: `.reports/`, `a/.cache/x`. */
const hidden = (p: string) => p.split('/').some((segment) => segment.startsWith('.') && segment !== '.' && segment !== '..');

describe('issue 37, the workflow files as GitHub reads them', () => {
  it('reads the files it means to (so the checks below cannot pass on nothing)', () => {
    const where = all.map((s) => s.where);
    expect(where).toEqual(expect.arrayContaining(['docs/ci/certify-matrix.yml', '.github/workflows/contract.yml', '.github/actions/certify/action.yml', '.github/actions/certify-merge/action.yml']));
    expect(where.some((w) => w.startsWith('docs/guides/certification.md'))).toBe(true);
    expect(uploads.length).toBeGreaterThanOrEqual(5);
  });

  it('item 9: every job that runs a check-run reporter has checks: write (the matrix merge job, the guide job)', () => {
    const reporting = all.flatMap((s) => Object.entries(s.jobs).filter(([, job]) => (job.steps ?? []).some((step) => CHECK_RUN_REPORTERS.test(step.uses ?? ''))).map(([id, job]) => ({ s, id, job })));
    expect(reporting.map(({ s, id }) => `${s.where} ${id}`)).toEqual(expect.arrayContaining(['docs/ci/certify-matrix.yml merge']));
    for (const { s, id, job } of reporting) {
      const permissions = job.permissions ?? s.permissions;
      const granted = permissions === 'write-all' || (typeof permissions === 'object' && permissions.checks === 'write');
      expect(granted, `${s.where}: job ${id} runs a JUnit reporter that creates a check run: give it permissions: checks: write (it has ${JSON.stringify(permissions)})`).toBe(true);
    }
    // The workflow's other jobs keep the read-only default: the grant is the merge job's alone.
    const matrix = all.find((s) => s.where === 'docs/ci/certify-matrix.yml')!;
    expect(matrix.permissions).toEqual({ contents: 'read' });
    expect(matrix.jobs.certify.permissions).toBeUndefined();
  });

  it('item 10: an upload of a hidden path (.reports/) says include-hidden-files: true', () => {
    const hiddenUploads = uploads.filter(({ source, step }) => String(step.with?.path ?? '').split('\n').map((l) => source.evaluate(l.trim())).some(hidden));
    // The guide's hand-written job and both actions (report-dir defaults to .reports/certify).
    expect(hiddenUploads.map(({ source }) => source.where)).toEqual(expect.arrayContaining(['docs/guides/certification.md (YAML block 1)', '.github/actions/certify/action.yml', '.github/actions/certify-merge/action.yml']));
    for (const { source, job, step } of hiddenUploads) {
      expect(step.with?.['include-hidden-files'], `${source.where} ${job}: upload of ${String(step.with?.path)} needs include-hidden-files: true`).toBe(true);
    }
  });

  it('item 11: every artifact upload says overwrite: true (re-running a job must not fail with 409)', () => {
    for (const { source, job, step } of uploads) {
      expect(step.with?.overwrite, `${source.where} ${job}: upload ${String(step.with?.name)} needs overwrite: true`).toBe(true);
    }
  });
});
