// llms.txt and llms-full.txt of the docs site (scripts/docs/llms.ts, issue 41), read from a built site of
// the working tree (siteToRead: docs/site/ when current, else a copy from the build cache, so no second
// build beside the browser test's). Checked against sources other than the ones the build reads where
// there are any: the generated operation tables and event catalog, the guides' files.
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOperations } from '../../generated/operations/admin.js';
import { storefrontOperations } from '../../generated/operations/storefront.js';
import { workbenchOperations, workbenchOperationsBasePath } from '../../generated/operations/workbench.js';
import { webhookEvents } from '../../generated/webhooks/catalog.js';
import { eventAnchor, familyHref } from '../../scripts/docs/events.js';
import { readGuides } from '../../scripts/docs/guides.js';
import { renderInferredRegister } from '../../scripts/docs/inferred.js';
import { renderLlmsFullTxt, renderLlmsTxt, skillFile } from '../../scripts/docs/llms.js';
import { agentToolNames } from '../../scripts/agent-tools.js';
import { renderMarkdown } from '../../scripts/docs/markdown.js';
import { changelogPage, guideHref, operationFacts, references } from '../../scripts/docs/pages.js';
import { dereferenceWithProvenance, loadRegisterEntries } from '../../scripts/docs/provenance.js';
import { documents, repoRoot } from '../../scripts/lib/repo.js';
import { hangGuard } from '../helpers/hang-guard.js';
import { siteToRead } from './site-build.js';

let site: Awaited<ReturnType<typeof siteToRead>>;
let index: string;
let full: string;

beforeAll(async () => {
  site = await siteToRead();
  [index, full] = await Promise.all(['llms.txt', 'llms-full.txt'].map((f) => readFile(path.join(site.dir, f), 'utf8')));
}, hangGuard(480_000)); // a build of the site when the cache has none for this tree (27 s idle, minutes under load)

afterAll(() => site?.remove());

/** The lines of one `## ` section of llms.txt (without its heading). */
function section(title: string): string[] {
  const parts = index.split(/^## /m);
  const found = parts.find((p) => p.startsWith(`${title}\n`));
  expect(found, `section "## ${title}"`).toBeDefined();
  return found!.split('\n').slice(1);
}

const items = (lines: string[]) => lines.filter((l) => l.startsWith('- '));
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('llms.txt', () => {
  it('has the llmstxt.org shape: one H1, a blockquote summary, paragraphs, then H2 sections of `- [name](url): note` lists', () => {
    const lines = index.split('\n');
    expect(lines[0]).toBe('# Storefront contract');
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> \S/);
    expect(lines.filter((l) => /^#{1}\s/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /^#{3,}\s/.test(l))).toEqual([]);
    const beforeSections = index.slice(0, index.indexOf('\n## '));
    expect(beforeSections.split('\n').filter((l) => l.startsWith('- ')), 'no list before the first section').toEqual([]);
    const bad = lines.filter((l) => l.startsWith('- ') && !/^- \[[^\]]+\]\([^)\s]+\)(?:: \S.*)?$/.test(l));
    expect(bad, 'list items that are not `- [name](url): note`').toEqual([]);
    expect(index.endsWith('\n') && !index.endsWith('\n\n')).toBe(true);
  });

  it('links every guide and reference, and every link it holds resolves to a file of the site (and an anchor of an event page to its element)', async () => {
    const links = [...index.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    const guides = await readGuides();
    expect(guides.length).toBeGreaterThan(5);
    const want = [...guides.map((g) => guideHref(g.slug)), ...references.map((r) => r.href), changelogPage.href, 'llms-full.txt'];
    expect(want.filter((href) => !links.includes(href)), 'pages llms.txt does not link').toEqual([]);
    expect(items(section('Guides')).map((l) => /\]\(([^)]+)\)/.exec(l)![1]), 'guides in the site\'s order').toEqual(guides.map((g) => guideHref(g.slug)));
    const broken: string[] = [];
    const pages = new Map<string, string>();
    for (const link of new Set(links)) {
      expect(link, 'relative to the site').not.toMatch(/^(?:[a-z]+:|\/)/i);
      const [file, hash] = link.split('#') as [string, string | undefined];
      const target = path.join(site.dir, file);
      if (!existsSync(target) || !statSync(target).isFile()) {
        broken.push(`${link}: no file ${file} in the site`);
        continue;
      }
      // Redoc's hash routes (#/tag/op) are checked in the browser (site.test.ts); element ids here.
      if (!hash || hash.startsWith('/')) continue;
      if (!pages.has(file)) pages.set(file, await readFile(target, 'utf8'));
      if (!pages.get(file)!.includes(` id="${hash}"`)) broken.push(`${link}: no element with id "${hash}"`);
    }
    expect(broken).toEqual([]);
  });

  it.each([
    ['Storefront API', storefrontOperations, 'reference/storefront.html', documents.storefront],
    ['Admin webhook API', adminOperations, 'reference/admin.html', documents.admin],
  ] as const)('lists every operation of the %s once (METHOD path: summary, its id, stated or designed), and no other', (api, table, href, file) => {
    const ops = Object.values(table) as Array<{ operationId: string; method: string; path: string }>;
    const lines = items(section(`${api} operations`));
    expect(lines).toHaveLength(ops.length);
    for (const op of ops) {
      const line = `- [${op.method.toUpperCase()} ${op.path}](${href}#/`;
      expect(count(index, line), `${op.operationId}: ${line}`).toBe(1);
      expect(count(index, `\`${op.operationId}\``), op.operationId).toBe(1);
      expect(lines.find((l) => l.startsWith(line)), op.operationId).toMatch(new RegExp(`\\)\\: \\S.*\\. \`${op.operationId}\`, (stated by the platform|designed here)\\.$`));
    }
    // As many "designed here" as the document marks `x-contract-source: inferred`.
    expect(lines.filter((l) => l.endsWith(', designed here.'))).toHaveLength(operationFacts(file).designed);
  });

  it('lists every operation of the Workbench API once, without a provenance (it is outside the contract)', () => {
    const ops = Object.values(workbenchOperations) as Array<{ operationId: string; method: string; path: string }>;
    const lines = items(section('Workbench API operations'));
    expect(lines).toHaveLength(ops.length);
    // The generated table has the whole path; llms.txt, like the document, the part after its server's.
    expect(section('Workbench API operations').join('\n')).toContain(`Paths are relative to \`{base_url}${workbenchOperationsBasePath}\`.`);
    for (const op of ops) {
      expect(op.path.startsWith(workbenchOperationsBasePath), op.path).toBe(true);
      const line = `- [${op.method.toUpperCase()} ${op.path.slice(workbenchOperationsBasePath.length) || '/'}](reference/workbench.html#/`;
      expect(count(index, line), op.operationId).toBe(1);
      expect(lines.find((l) => l.startsWith(line)), op.operationId).toMatch(new RegExp(`\\. \`${op.operationId}\`\\.$`));
    }
  });

  it('lists every event of the catalog once, linked to its family page, stated or designed as the catalog says', () => {
    const lines = items(section('Webhook events'));
    expect(lines).toHaveLength(webhookEvents.length);
    for (const e of webhookEvents) {
      const line = `- [${e.event}](${familyHref(e.family)}#${eventAnchor(e.event)}): `;
      expect(count(index, line), e.event).toBe(1);
      const words = e.contractSource === 'seed' ? 'stated by the platform' : 'designed here';
      expect(lines.find((l) => l.startsWith(line)), e.event).toContain(`${e.summary.replace(/\.$/, '')}.`);
      expect(lines.find((l) => l.startsWith(line)), e.event).toMatch(new RegExp(`family, ${words}(, marketplace-scoped)?\\.$`));
      expect(lines.find((l) => l.startsWith(line))!.endsWith(', marketplace-scoped.'), e.event).toBe(e.marketplaceScoped === true);
    }
  });

  it('tells a coding agent about `storefront-contract mcp`, its tools and the skill file the tools package ships', async () => {
    const text = section('For coding agents').join('\n');
    expect(text).toContain('`npx storefront-contract mcp`');
    const names = await agentToolNames();
    for (const tool of [...names.everywhere, ...names.clone]) expect(count(text, `\`${tool}\``), tool).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/in a clone of the repository also `contract_diff`, `contract_lint`/);
    expect(text).toContain(`\`node_modules/storefront-contract-tools/${skillFile}\``);
    const skill = await readFile(path.join(repoRoot, 'packages/storefront-contract-tools', skillFile), 'utf8');
    expect(skill.startsWith('---\nname: storefront-contract\n')).toBe(true);
  });

  it('is linked from the landing page and found by the site search', async () => {
    const landing = await readFile(path.join(site.dir, 'index.html'), 'utf8');
    expect(landing).toContain('<a href="llms.txt">');
    expect(landing).toContain('<a href="llms-full.txt">');
    const search = JSON.parse(await readFile(path.join(site.dir, 'assets/search-index.json'), 'utf8')) as Array<{ u: string }>;
    expect(search.map((e) => e.u)).toEqual(expect.arrayContaining(['llms.txt', 'llms-full.txt']));
  });
});

describe('llms-full.txt', () => {
  it('opens with the header of llms.txt, then every guide in full, in the site\'s order, each under its `# title` and URL', async () => {
    const header = index.slice(0, index.indexOf('\n\nLinks are relative to this file.'));
    expect(full.startsWith(header.replace(' The lists below say which for every operation and event.', ''))).toBe(true);
    const guides = await readGuides();
    let from = 0;
    for (const g of guides) {
      // The guide's own file, as committed, without its first heading (the file's `# title` stands for it)
      // and a generated guide's "do not edit" comment above it.
      const source = await readFile(path.join(repoRoot, 'docs/guides', `${g.slug}.md`), 'utf8');
      const body = source.replace(/^(?:\s*<!--[\s\S]*?-->)*\s*#\s+.+\n/, '').trim();
      expect(body, g.slug).not.toBe(source.trim());
      expect(body.length, g.slug).toBeGreaterThan(500);
      const block = `# ${g.title}\n\nURL: ${guideHref(g.slug)}\n\n${body}\n`;
      const at = full.indexOf(block, from);
      expect(at, `${g.slug}: its whole text, after the guide before it`).toBeGreaterThan(from - 1);
      from = at + block.length;
    }
    expect(full.slice(from), 'nothing after the last guide').toBe('');
  });
});

describe('both files', () => {
  it('are what the build\'s inputs give now, byte for byte (no date, no machine), and precompressed for /docs', async () => {
    const entries = await loadRegisterEntries(renderMarkdown(await renderInferredRegister()).html);
    const input = { guides: await readGuides(), webhooks: await dereferenceWithProvenance('webhooks', entries), agentTools: await agentToolNames() };
    expect(renderLlmsTxt(input)).toBe(index);
    expect(renderLlmsFullTxt(input)).toBe(full);
    for (const [name, text] of [['llms.txt', index], ['llms-full.txt', full]] as const) {
      expect(Buffer.byteLength(text), name).toBeGreaterThanOrEqual(1024);
      const file = path.join(site.dir, name);
      expect(brotliDecompressSync(await readFile(`${file}.br`)).toString('utf8'), `${name}.br`).toBe(text);
      expect(gunzipSync(await readFile(`${file}.gz`)).toString('utf8'), `${name}.gz`).toBe(text);
    }
    expect(index).not.toMatch(/\b(?:19|20)\d\d-\d\d-\d\d\b/);
  }, hangGuard(60_000));
});
