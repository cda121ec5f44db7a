// The breaking-change gate on fixture pairs (test/diff/fixtures/<case>/{base,revision}.yaml): small
// self-contained documents, so no git history is needed. Each case states whether the gate passes
// and which change must be reported.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffDocuments } from '../../scripts/diff/compare.js';
import { majorOf } from '../../scripts/diff/policy.js';
import { formatReport } from '../../scripts/diff/report.js';
import { repoRoot } from '../../src/contract/spec-files.js';
import { run } from '../helpers/run.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const pair = (name: string) => [path.join(fixtures, name, 'base.yaml'), path.join(fixtures, name, 'revision.yaml')] as const;

interface Case {
  ok: boolean;
  /** A reported breaking change must contain this text (subject, path or message). */
  breaking?: string;
  nonBreaking?: string;
}

const cases: [string, Case][] = [
  ['removed-response-field', { ok: false, breaking: 'properties/note' }],
  ['narrowed-type', { ok: false, breaking: "Type narrowed from 'number' to 'integer'" }],
  ['new-required-parameter', { ok: false, breaking: 'GET /orders' }],
  ['removed-event', { ok: false, breaking: 'event order.deleted' }],
  ['removed-payload-field', { ok: false, breaking: 'payload/properties/status' }],
  ['minor-bump-not-enough', { ok: false, breaking: 'properties/note' }],
  ['added-optional-field', { ok: true, nonBreaking: 'gift_message' }],
  ['new-operation', { ok: true, nonBreaking: '/countries' }],
  ['added-event-and-field', { ok: true, nonBreaking: 'event order.updated' }],
  ['major-bump', { ok: true, breaking: 'properties/note' }],
  ['event-removed-with-major-bump', { ok: true, breaking: 'event order.deleted' }],
];

const text = (c: { subject: string; path: string; message: string }) => `${c.subject} ${c.path} ${c.message}`;

describe('diffDocuments on fixture pairs', () => {
  it.each(cases)('%s', async (name, want) => {
    const result = await diffDocuments(...pair(name));
    const report = formatReport(name, result);
    expect(result.verdict.ok, report).toBe(want.ok);
    const breaking = result.changes.filter((c) => c.impact === 'breaking').map(text);
    const nonBreaking = result.changes.filter((c) => c.impact === 'non-breaking').map(text);
    if (want.breaking) expect(breaking.join('\n'), report).toContain(want.breaking);
    else expect(breaking, report).toEqual([]);
    if (want.nonBreaking) expect(nonBreaking.join('\n'), report).toContain(want.nonBreaking);
  });

  it('points an OpenAPI change at its file and line', async () => {
    const result = await diffDocuments(...pair('removed-response-field'));
    const [change] = result.changes;
    expect(change.location).toMatchObject({ file: pair('removed-response-field')[0], line: 29 });
  });

  it('identical documents have no changes', async () => {
    for (const name of ['removed-response-field', 'removed-event']) {
      const [base] = pair(name);
      const result = await diffDocuments(base, base);
      expect(result.changes).toEqual([]);
      expect(result.verdict.ok).toBe(true);
    }
  });
});

describe('policy', () => {
  it.each([
    ['1.2.0', 1],
    ['1.0.0-beta.1', 1],
    ['v2.0.0', 2],
    ['0.3.1', 0],
    ['next', undefined],
  ] as const)('majorOf(%s) = %s', (version, want) => expect(majorOf(version)).toBe(want));
});

describe('npm run diff (the CLI)', () => {
  const tsx = [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'scripts/diff.ts'];

  it('exits 1 on an unapproved breaking change and prints a readable report', async () => {
    const r = await run(process.execPath, [...tsx, ...pair('removed-event')], { cwd: repoRoot });
    expect(r.code, r.output).toBe(1);
    expect(r.stdout).toContain('event order.deleted');
    expect(r.stdout).toContain('FAIL');
    expect(r.stdout).toContain('bump info.version to 2.0.0');
  });

  it('exits 0 on a compatible change', async () => {
    const r = await run(process.execPath, [...tsx, ...pair('new-operation')], { cwd: repoRoot });
    expect(r.code, r.output).toBe(0);
    expect(r.stdout).toContain('PASS');
  });

  it('compares every document with its state at a git ref (HEAD: clean or compatible)', async () => {
    const r = await run(process.execPath, [...tsx, '--base', 'HEAD'], { cwd: repoRoot });
    expect(r.output).toContain('spec/openapi/storefront.yaml');
    expect(r.output).toContain('spec/asyncapi/webhooks.yaml');
    expect([0, 1], r.output).toContain(r.code); // 1 only if the working tree holds a breaking change
  });

  it('names the problem when the ref does not exist', async () => {
    const r = await run(process.execPath, [...tsx, '--base', 'no-such-ref-xyz'], { cwd: repoRoot });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('git ref "no-such-ref-xyz" not found');
  });

  it('annotates breaking changes for GitHub Actions', async () => {
    const r = await run(process.execPath, [...tsx, '--base', 'HEAD', '--format', 'github-actions'], { cwd: repoRoot });
    for (const l of r.stdout.split('\n').filter((l) => l.startsWith('::'))) expect(l).toMatch(/^::error file=spec\//);
  });
});
