// The breaking-change gate on fixture pairs (test/diff/fixtures/<case>/base.{yaml,json} and
// revision.{yaml,json}, or base/openapi.yaml for a split document): small self-contained documents, so no
// git history is needed. Each case states whether the gate passes, which change must be reported and
// which operations or events the changes reach. Every pair is diffed once (a few at a time: each OpenAPI
// pair spawns Redocly) and the results are shared by the tests that read them; the CLI runs in process
// except one spawned run that proves the bin's exit code.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDiff } from '../../scripts/diff/cli.js';
import { diffDocuments, type DiffResult } from '../../scripts/diff/compare.js';
import { isDocumentationOnly } from '../../scripts/diff/impact.js';
import { bumpBetween, majorOf, nextVersion, requiredBump } from '../../scripts/diff/policy.js';
import type { Bump } from '../../scripts/diff/types.js';
import { affected, formatAnnotations, formatReport, plainLabels } from '../../scripts/diff/report.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const side = (name: string, which: 'base' | 'revision') =>
  [`${which}.yaml`, `${which}.json`, `${which}/openapi.yaml`].map((f) => path.join(fixtures, name, f)).find((f) => existsSync(f))!;
const pair = (name: string) => [side(name, 'base'), side(name, 'revision')] as const;

interface Case {
  ok: boolean;
  /** A reported breaking change must contain this text (subject, path or message). */
  breaking?: string;
  nonBreaking?: string;
  /** Every change is docs-only, and one contains this text. */
  docsOnly?: string;
  /** The version bump the changes need. */
  bump?: Bump;
  /** Exactly the operations and events the changes reach (directly or through a shared component). */
  affects?: string[];
}

const cases: [string, Case][] = [
  ['removed-response-field', { ok: false, breaking: 'properties/note', affects: ['GET /orders'] }],
  ['narrowed-type', { ok: false, breaking: "Type narrowed from 'number' to 'integer'" }],
  ['new-required-parameter', { ok: false, breaking: 'GET /orders' }],
  ['removed-event', { ok: false, breaking: 'event order.deleted', affects: ['event order.deleted'] }],
  ['removed-payload-field', { ok: false, breaking: 'payload/properties/status' }],
  ['minor-bump-not-enough', { ok: false, breaking: 'properties/note' }],
  ['added-optional-field', { ok: true, nonBreaking: 'gift_message', bump: 'minor' }],
  // Bounds on what the sender sends, from the receiver's side: added or narrowed is not breaking, widened is.
  ['payload-bounds', { ok: false, breaking: 'payload/properties/note/maxLength', nonBreaking: 'payload/properties/stock_quantity/maximum', bump: 'major' }],
  ['new-operation', { ok: true, nonBreaking: '/countries' }],
  ['added-event-and-field', { ok: true, nonBreaking: 'event order.updated' }],
  ['major-bump', { ok: true, breaking: 'properties/note' }],
  ['event-removed-with-major-bump', { ok: true, breaking: 'event order.deleted' }],
  // A component used by two operations (JSON documents): the change names the component and both.
  ['shared-component', { ok: false, breaking: 'components/schemas/Order properties/note', affects: ['GET /orders', 'GET /orders/{id}'] }],
  // Split files as in spec/openapi/: a shared schema file, and a path-level parameter of one path item.
  ['split-shared-file', { ok: false, breaking: 'schemas/Pricing.yaml properties/tax_rate', nonBreaking: '/products/{product_id} parameters/1', affects: ['GET /products', 'GET /products/{product_id}'] }],
  // A payload schema shared by two events (YAML base, JSON revision); the third event is untouched.
  ['shared-schema-events', { ok: false, breaking: 'event order.updated payload/properties/order/properties/status', affects: ['event order.created', 'event order.updated'] }],
  // Descriptions, summaries and examples only: docs-only, a patch; the operation they document is named.
  ['docs-only-openapi', { ok: true, docsOnly: 'GET /orders responses/200/content/application/json/schema/properties/order_number · examples', affects: ['GET /orders'], bump: 'patch' }],
  // A property called `description` (or `title`) is a property, not documentation.
  ['property-named-description', { ok: false, breaking: 'properties/description', bump: 'major' }],
  // The same in a payload: documentation edits are docs-only, removing a property called `tags` breaks.
  ['docs-only-asyncapi', { ok: false, breaking: 'event product.updated payload/properties/tags', affects: ['event product.updated'], bump: 'major' }],
];

const text = (c: { subject: string; path: string; message: string }) => `${c.subject} ${c.path} ${c.message}`;

/**
 * Every pair is diffed once, at most three at a time (Redocly is a process each; the machine has two
 * cores), starting as the file loads; each test awaits only the results it reads, under its own timeout.
 */
function diffAll(pairs: [string, readonly [string, string]][], limit: number): Map<string, Promise<DiffResult>> {
  const started = new Map<string, Promise<DiffResult>>();
  let slots = limit;
  const waiting: (() => void)[] = [];
  const slot = () => (slots > 0 ? (slots--, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve)));
  const free = () => (waiting.length ? waiting.shift()!() : slots++);
  for (const [key, [base, revision]] of pairs) {
    const result = slot().then(() => diffDocuments(base, revision).finally(free));
    result.catch(() => undefined); // reported by the test that awaits it
    started.set(key, result);
  }
  return started;
}

const results = diffAll(
  [
    ...cases.map(([name]) => [name, pair(name)] as [string, readonly [string, string]]),
    ...['removed-response-field', 'removed-event'].map((name) => [`identical:${name}`, [pair(name)[0], pair(name)[0]]] as [string, readonly [string, string]]),
  ],
  3,
);
const result = (key: string) => results.get(key)!;

describe('diffDocuments on fixture pairs', () => {
  it.each(cases)('%s', async (name, want) => {
    const diffed = await result(name);
    const report = formatReport(name, diffed);
    expect(diffed.verdict.ok, report).toBe(want.ok);
    const breaking = diffed.changes.filter((c) => c.impact === 'breaking').map(text);
    const nonBreaking = diffed.changes.filter((c) => c.impact === 'non-breaking').map(text);
    if (want.breaking) expect(breaking.join('\n'), report).toContain(want.breaking);
    else expect(breaking, report).toEqual([]);
    if (want.nonBreaking) expect(nonBreaking.join('\n'), report).toContain(want.nonBreaking);
    if (want.docsOnly) {
      expect(diffed.changes.filter((c) => c.impact !== 'docs-only').map(text), report).toEqual([]);
      expect(diffed.changes.map(text).join('\n'), report).toContain(want.docsOnly);
    }
    if (want.bump) expect(diffed.verdict.bump.needed, report).toBe(want.bump);
    if (want.affects) {
      expect(affected(diffed.changes), report).toEqual(want.affects);
      expect(report).toContain(`affected: ${want.affects.join(', ')}`);
    }
  });

  it('prints the operations a shared component reaches under the component', async () => {
    const report = formatReport('shared-component', await result('shared-component'));
    expect(report).toContain('  components/schemas/Order\n');
    expect(report).toContain('affects 2 operations: GET /orders, GET /orders/{id}');
  });

  it('does not repeat a shared AsyncAPI schema change under components/schemas', async () => {
    const subjects = (await result('shared-schema-events')).changes.map((c) => c.subject);
    expect(subjects.sort()).toEqual(['event order.created', 'event order.updated']);
  });

  it('points an OpenAPI change at its file and line', async () => {
    const [change] = (await result('removed-response-field')).changes;
    expect(change.location).toMatchObject({ file: pair('removed-response-field')[0], line: 29 });
    const [shared] = (await result('split-shared-file')).changes.filter((c) => c.impact === 'breaking');
    expect(shared.location).toMatchObject({ file: path.join(fixtures, 'split-shared-file/base/schemas/Pricing.yaml'), line: 6 });
  });

  it('annotates a shared change with every operation it affects', async () => {
    const [annotation] = formatAnnotations('x.yaml', await result('shared-component'), plainLabels);
    expect(annotation).toMatch(/^::error file=test\/diff\/fixtures\/shared-component\/base\.json,line=\d+,title=Breaking change%3A components\/schemas\/Order::/);
    expect(annotation).toContain('(affects GET /orders, GET /orders/{id})');
  });

  it.each(['removed-response-field', 'removed-event'])('identical documents have no changes (%s)', async (name) => {
    const diffed = await result(`identical:${name}`);
    expect(diffed.changes).toEqual([]);
    expect(diffed.verdict.ok).toBe(true);
  });
});

describe('documents it cannot read', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-diff-test-'));
    await writeFile(path.join(dir, 'neither.json'), '{"swagger": "2.0"}');
    await writeFile(path.join(dir, 'broken.json'), '{"openapi": "3.1.0",');
    return () => rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['neither.json', 'has neither an `openapi` nor an `asyncapi` key at the top level'],
    ['broken.json', 'not valid YAML or JSON'],
    ['missing.yaml', 'cannot read it (ENOENT)'],
  ])('%s: names the file and the problem', async (file, message) => {
    const target = path.join(dir, file);
    await expect(diffDocuments(target, target)).rejects.toThrow(`${target}`);
    await expect(diffDocuments(target, target)).rejects.toThrow(message);
  });

  it('refuses to compare an OpenAPI document with an AsyncAPI one', async () => {
    await expect(diffDocuments(pair('removed-response-field')[0], pair('removed-event')[0])).rejects.toThrow('cannot compare openapi');
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

  it.each([
    [['paths', '/orders', 'get', 'description'], true],
    [['components', 'schemas', 'Order', 'properties', 'note', 'examples', '0'], true],
    [['payload', 'properties', 'status', 'x-contract-source'], true],
    [['info', 'contact', 'url'], true],
    [['x-delivery-rules', 'sources', 'method'], true],
    [['info', 'version'], false],
    [['payload', 'properties', 'description'], false],
    [['payload', 'properties', 'tags', 'items', 'type'], false],
    [['components', 'schemas', 'title'], false],
    [['payload', 'required', 'summary'], false],
    [['x-delivery-rules', 'timeoutSeconds'], false],
  ] as const)('isDocumentationOnly(%j) = %s', (segments, want) => expect(isDocumentationOnly(segments)).toBe(want));

  it.each([
    [['breaking', 'non-breaking', 'docs-only'], 'major'],
    [['docs-only', 'non-breaking'], 'minor'],
    [['docs-only'], 'patch'],
    [[], 'none'],
  ] as const)('changes %j need a %s bump', (impacts, want) => expect(requiredBump(impacts.map((impact) => ({ impact })))).toBe(want));

  it.each([
    ['1.0.0-beta.1', '2.0.0-beta.1', 'major'],
    ['1.0.0-beta.1', '1.1.0-beta.1', 'minor'],
    ['1.0.0-beta.1', '1.0.0-beta.2', 'patch'],
    ['1.0.0-beta.1', '1.0.0', 'patch'],
    ['0.1.0', '0.2.0', 'minor'],
    ['1.2.0', '1.2.0', 'none'],
    ['1.2.0', '1.1.9', undefined],
    ['1.2.0', 'next', undefined],
  ] as const)('bumpBetween(%s, %s) = %s', (from, to, want) => expect(bumpBetween(from, to)).toBe(want));

  it.each([
    ['1.0.0-beta.3', 'major', '2.0.0-beta.1'],
    ['1.0.0-beta.3', 'minor', '1.1.0-beta.1'],
    ['1.0.0-beta.1', 'patch', '1.0.1-beta.1'],
    ['1.4.2', 'major', '2.0.0'],
    ['1.4.2', 'none', '1.4.2'],
  ] as const)('nextVersion(%s, %s) = %s', (version, bump, want) => expect(nextVersion(version, bump)).toBe(want));
});

describe('npm run diff (the CLI)', () => {
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runDiff(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  };

  it('exits 1 on an unapproved breaking change and prints a readable report (the real bin)', async () => {
    const tsx = [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'scripts/diff.ts'];
    const r = await run(process.execPath, [...tsx, ...pair('removed-response-field')], { cwd: repoRoot });
    expect(r.code, r.output).toBe(1);
    expect(r.stdout).toContain('GET /orders');
    expect(r.stdout).toContain('FAIL');
    expect(r.stdout).toContain('bump info.version to 2.0.0');
  });

  it('exits 0 on a compatible change', async () => {
    const r = await cli(...pair('added-event-and-field'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('PASS');
  });

  it('compares every document with its state at a git ref (annotations, if the working tree has any change, are errors on spec/ files)', async () => {
    const r = await cli('--base', 'HEAD', '--format', 'github-actions');
    for (const doc of ['spec/openapi/storefront.yaml', 'spec/openapi/admin.yaml', 'spec/asyncapi/webhooks.yaml']) expect(r.stdout).toContain(`diff: ${doc} against HEAD`);
    expect([0, 1], r.stdout + r.stderr).toContain(r.code); // 1 only if the working tree holds a breaking change
    for (const l of r.stdout.split('\n').filter((l) => l.startsWith('::'))) expect(l).toMatch(/^::error file=spec\//);
  });

  it.each([
    [['--base', 'no-such-ref-xyz'], 'git ref "no-such-ref-xyz" not found'],
    [['only-one.yaml'], 'give either --base <git-ref> or two files'],
    [['--base', 'HEAD', '--format', 'xml'], '--format xml is not a format'],
  ])('exits 2 and names the problem: %j', async (argv, message) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
