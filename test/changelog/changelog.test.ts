// `storefront-contract changelog <old> <new>` between two commits of a repository's history. The test makes
// its own history in a temporary git repository (this repository's history may be shallow in CI): a
// first commit with the three documents (fixtures/v1), a second (fixtures/v2) with one breaking change in
// a shared schema (it reaches two operations), one in a shared payload schema (two events), additions (an
// optional field, an operation, an event) and description-only edits; spec/versions.yaml in the working tree names the
// two commits as releases 1.0.0 and 1.1.0. The real bin of a clone runs once, writing Markdown and JSON
// from one comparison; the assertions read both. Then: a shallow clone without the old commit, and misuse.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Changelog, Entry } from '../../scripts/changelog/build.js';
import { runChangelog } from '../../scripts/changelog/cli.js';
import { messageMarkdown, publishedMessage } from '../../scripts/changelog/render.js';
import { parseReleases } from '../../scripts/changelog/versions.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';
import { hangGuard } from '../helpers/hang-guard.js';

const exec = promisify(execFile);
const tsx = path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs');
const bin = path.join(repoRoot, 'scripts/bin/storefront-contract.mjs');
/** The clone's bin, as `npx storefront-contract` runs it, from any folder. */
const changelog = (cwd: string, ...args: string[]) => run(process.execPath, ['--conditions=sfc-source', '--import', tsx, bin, 'changelog', ...args], { cwd });

/** The two versions of the spec (test/changelog/fixtures/v1 and v2, also the guide's example). */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

let repo: string;
let commits: string[];
let result: Awaited<ReturnType<typeof changelog>>;
let json: Changelog & { groups: Record<string, Entry[]> };
let md: string;

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd });
  return stdout.trim();
}

async function writeSpec(v: 1 | 2): Promise<void> {
  await cp(path.join(fixtures, `v${v}/spec`), path.join(repo, 'spec'), { recursive: true, force: true });
}

beforeAll(async () => {
  repo = await mkdtemp(path.join(os.tmpdir(), 'sfc-changelog-'));
  await git(repo, 'init', '-q', '-b', 'main');
  commits = [];
  for (const v of [1, 2] as const) {
    await writeSpec(v);
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', `spec v${v}`);
    commits.push(await git(repo, 'rev-parse', 'HEAD'));
  }
  // The record of releases, as in this repository (uncommitted: read from the working tree).
  await writeFile(path.join(repo, 'spec/versions.yaml'), `releases:\n  - version: 1.0.0\n    commit: ${commits[0]}\n  - version: 1.1.0\n    commit: ${commits[1]}\n`);
  // Old side by release number, new side by git ref (HEAD is release 1.1.0's commit).
  result = await changelog(repo, '1.0.0', 'HEAD', '--out', 'changelog.md', '--out', 'changelog.json');
  if (result.code === 0) {
    md = await readFile(path.join(repo, 'changelog.md'), 'utf8');
    json = JSON.parse(await readFile(path.join(repo, 'changelog.json'), 'utf8'));
  }
}, hangGuard(120_000));

afterAll(() => rm(repo, { recursive: true, force: true }));

const find = (group: string, text: string) => json.groups[group].find((e) => `${e.subject} ${e.path} ${e.message}`.includes(text));

describe('changelog between two commits (a temporary repository)', () => {
  it('writes Markdown and JSON from one comparison (exit 0)', () => {
    expect(result.code, result.output).toBe(0);
    expect(result.stderr).toContain('changelog.md (md)');
    expect(result.stderr).toContain('changelog.json (json)');
  });

  it('names both sides: a release by its number, a ref that is a release by both', () => {
    expect(json.old).toMatchObject({ label: '1.0.0', kind: 'release', version: '1.0.0', commit: commits[0] });
    expect(json.new).toMatchObject({ label: 'HEAD (release 1.1.0)', kind: 'ref', version: '1.1.0', commit: commits[1] });
    expect(md).toMatch(/^# Contract changelog: 1\.0\.0 → HEAD \(release 1\.1\.0\)$/m);
  });

  it('breaking: a removed field of a shared schema, with both operations it reaches', () => {
    const e = find('breaking', 'note');
    expect(e, JSON.stringify(json.groups.breaking, null, 2)).toMatchObject({ document: 'storefront', reaches: ['GET /orders', 'GET /orders/{order_id}'] });
    expect(md).toContain('Reaches 2 operations: `listOrders` (GET /orders), `getOrder` (GET /orders/{order_id}).');
  });

  it('breaking: a removed payload property of a shared schema, under both events it reaches', () => {
    const events = json.groups.breaking.filter((e) => e.document === 'webhooks' && e.path.endsWith('properties/status')).map((e) => e.reaches);
    expect(events.sort()).toEqual([['event order.created'], ['event order.updated']]);
    expect(md).toMatch(/- \*\*event order\.created\*\* `payload\/properties\/status` remove: property `status` removed: receivers that read it break\n {2}Reaches the event: `order\.created`\./);
  });

  it('non-breaking: an optional field (two operations), a new operation and a new event', () => {
    expect(find('non-breaking', 'gift_message')?.reaches).toEqual(['GET /orders', 'GET /orders/{order_id}']);
    expect(json.groups['non-breaking'].find((e) => e.subject === '/countries')?.reaches).toEqual(['GET /countries']);
    expect(find('non-breaking', 'event order.deleted')).toMatchObject({ message: 'event added', reaches: ['event order.deleted'] });
  });

  it('docs-only: a description and a message summary, each with what it documents', () => {
    expect(find('docs-only', 'GET /orders description')?.reaches).toEqual(['GET /orders']);
    expect(find('docs-only', 'event order.created summary')?.reaches).toEqual(['event order.created']);
    expect(json.groups['docs-only']).toHaveLength(2);
  });

  it('groups the Markdown breaking / non-breaking / docs-only, each by document', () => {
    const headings = md.split('\n').filter((l) => /^#{2,3} /.test(l));
    expect(headings).toEqual([
      `## Breaking changes (${json.groups.breaking.length})`,
      '### Storefront API',
      '### Webhook events',
      `## Non-breaking changes (${json.groups['non-breaking'].length})`,
      '### Storefront API',
      '### Webhook events',
      '## Docs-only changes (2)',
      '### Storefront API',
      '### Webhook events',
      `## Operations and events reached (${json.reached.length})`,
    ]);
    // The admin document did not change: counted, listed as unchanged, no section.
    expect(json.documents.find((d) => d.name === 'admin')).toMatchObject({ status: 'unchanged', counts: { breaking: 0, 'non-breaking': 0, 'docs-only': 0 } });
  });

  it('says which version bump the changes need, and that the release number falls short of it', () => {
    expect(json.bump).toBe('major');
    expect(json.documents.find((d) => d.name === 'storefront')?.bump).toMatchObject({ needed: 'major', covered: false, suggested: '2.0.0-beta.1' });
    expect(json.release).toEqual({ made: 'minor', needed: 'major', covered: false });
    expect(md).toContain('The release number moved 1.0.0 → 1.1.0 (minor), short of the major bump they need.');
  });

  it('lists every operation and event reached, with operationIds', () => {
    expect(json.reached.map((r) => `${r.document} ${r.operationId ?? ''} ${r.name}`.replace(/ +/g, ' '))).toEqual([
      'storefront listCountries GET /countries',
      'storefront listOrders GET /orders',
      'storefront getOrder GET /orders/{order_id}',
      'webhooks event order.created',
      'webhooks event order.deleted',
      'webhooks event order.updated',
    ]);
  });
});

describe('changelog refusals (one line, exit 2)', () => {
  it('a shallow clone without the old release says how to fetch it', async () => {
    const shallow = `${repo}-shallow`;
    await exec('git', ['clone', '-q', '--depth', '1', `file://${repo}`, shallow]);
    try {
      await writeFile(path.join(shallow, 'spec/versions.yaml'), await readFile(path.join(repo, 'spec/versions.yaml')));
      const r = await changelog(shallow, '1.0.0', 'HEAD');
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        `storefront-contract changelog: release 1.0.0 (spec/versions.yaml) is commit ${commits[0].slice(0, 12)}, which this clone does not have; this clone is shallow: git fetch --unshallow (in GitHub Actions, actions/checkout with fetch-depth: 0)`,
      ]);
    } finally {
      await rm(shallow, { recursive: true, force: true });
    }
  });

  // In process (runChangelog with the temporary repository as its folder): the bin's wiring is proven above.
  it.each([
    [['9.9.9', 'HEAD'], 'changelog: 9.9.9: not a folder, a release (spec/versions.yaml: 1.0.0, 1.1.0) or a git ref of this repository; give one of those'],
    [['1.0.0'], 'changelog: give two versions, <old> and <new> (got 1)'],
    [['1.0.0', 'HEAD', '--format', 'xml'], 'changelog: --format xml is not a format; use --format md or --format json'],
    [['1.0.0', 'HEAD', '--frmat', 'md'], 'changelog: unknown option --frmat; the options are --format, --out and --help'],
    [['1.0.0', os.tmpdir()], "the folder holds none of the contract's documents"],
  ])('%j', async (args, message) => {
    const err: string[] = [];
    const code = await runChangelog(args, { out: () => undefined, err: (line) => err.push(line) }, repo);
    expect(code).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toContain(message);
  });
});

describe('published words', () => {
  it('a provenance marker reads "stated by the platform" or "designed here", never the source document', () => {
    const e = { subject: 'event order.created', path: 'payload/properties/status/x-contract-source', message: 'documentation only ("seed" -> "inferred")' };
    expect(publishedMessage(e)).toBe('documentation only ("stated by the platform" -> "designed here")');
    expect(messageMarkdown(publishedMessage(e))).toBe('documentation only (`"stated by the platform"` → `"designed here"`)');
    expect(publishedMessage({ ...e, path: 'payload/properties/status/description' })).toBe(e.message);
  });

  it.each([
    ['`pattern` changed from \'^a`b$\' to \'^[*_]$\'.', '`pattern` changed from ``^a`b$`` to `^[*_]$`.'],
    ['Property `note` of `Order` was removed.', 'Property `note` of `Order` was removed.'],
    ['a [link](x.md) and *stars* <b>', 'a \\[link\\](x.md) and \\*stars\\* \\<b\\>'],
  ])('an engine message as Markdown: %s', (message, want) => expect(messageMarkdown(message)).toBe(want));
});

describe('spec/versions.yaml', () => {
  it('the committed record parses: releases oldest first, full commit ids', async () => {
    const releases = parseReleases(await readFile(path.join(repoRoot, 'spec/versions.yaml'), 'utf8'));
    expect(releases.length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['releases:\n  - version: 0.2.0\n    commit: abc\n', 'releases[0] (0.2.0): "commit" must be a full commit id'],
    [`releases:\n  - version: 0.2.0\n    commit: ${'a'.repeat(40)}\n  - version: 0.1.0\n    commit: ${'b'.repeat(40)}\n`, 'releases[1]: 0.1.0 does not come after 0.2.0'],
    ['releases:\n  - version: 1\n', 'releases[0]: "version" must be a semver version as a string'],
    ['release: []\n', 'needs a list "releases"'],
  ])('refuses %j', (text, message) => expect(() => parseReleases(text)).toThrow(message));
});
