// npm run docs: builds the static documentation site in docs/site/ (git-ignored).
//   reference/storefront.html, reference/admin.html  redocly build-docs (Redoc 3), the two in parallel
//   events/index.html, events/<family>.html          rendered here from the dereferenced AsyncAPI document
//   guides/*.html                                     docs/guides/*.md through marked + layout
//   changelog.html                                    each release against the one before (spec/versions.yaml),
//                                                     rated by the diff engine (scripts/changelog/)
//   index.html                                        the landing page
//   llms.txt, llms-full.txt                           the site for agents that read (llmstxt.org): every guide,
//                                                     reference, operation and event as a list of links, and
//                                                     every guide's Markdown in full (scripts/docs/llms.ts)
//   assets/                                           stylesheets, Redoc's script (shared by both references,
//                                                     named by its content hash), the search script and its index
//   <file>.br, <file>.gz                              every text file of 1 KB or more precompressed, for /docs
//                                                     (scripts/docs/precompress.ts)
// Every page carries the same header (home, references, guides, search). It first regenerates
// docs/guides/inferred-decisions.md from spec/inferred/*.yaml (committed). Served by `npm start` at /docs.
// `--out <dir>` builds the site elsewhere (`npm run build` builds it straight into the tools package's stage).
// A site built from the same working tree is copied from the build cache (scripts/docs/build-cache.ts);
// `--no-cache` builds it anyway.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './lib/repo.js';
import { buildChangelogPage } from './docs/changelog.js';
import { buildEvents } from './docs/events.js';
import { buildGuides, readGuides } from './docs/guides.js';
import { inferredGuideFile, renderInferredRegister } from './docs/inferred.js';
import { buildLanding } from './docs/landing.js';
import { llmsEntries, writeLlms } from './docs/llms.js';
import { agentToolNames } from './agent-tools.js';
import { renderMarkdown } from './docs/markdown.js';
import { forgetSiteKey, withSiteCache } from './docs/build-cache.js';
import { changelogPage, guideHref, references, siteDir as defaultSiteDir } from './docs/pages.js';
import { dereferenceWithProvenance, loadRegisterEntries } from './docs/provenance.js';
import { precompressSite } from './docs/precompress.js';
import { buildOpenApiReference, copyRedocScript } from './docs/references.js';
import { operationEntries, sectionEntries, writeSearchIndex, type SearchEntry } from './docs/search-index.js';

const started = Date.now();
const elapsed = (since = started) => `${((Date.now() - since) / 1000).toFixed(1)}s`;
const log = (line: string) => console.log(`docs: ${line}`);

async function step<T>(label: string, work: () => Promise<T>): Promise<T> {
  const t = Date.now();
  const result = await work();
  log(`${label} (${elapsed(t)})`);
  return result;
}

async function writeIfChanged(file: string, text: string): Promise<boolean> {
  const old = await readFile(file, 'utf8').catch(() => undefined);
  if (old === text) return false;
  await writeFile(file, text);
  return true;
}

const ASSETS = ['site.css', 'header.css', 'search.js'];
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

if (process.argv.includes('--help')) {
  console.log('usage: npm run docs [-- --out <dir>] [--no-cache]   builds the documentation site into docs/site/ (or <dir>); served by the workbench at /docs');
  process.exit(0);
}

function outDir(): string {
  const at = process.argv.indexOf('--out');
  if (at === -1) return defaultSiteDir;
  const dir = process.argv[at + 1];
  if (!dir || dir.startsWith('--')) {
    console.error('docs: --out needs a folder, e.g. npm run docs -- --out /tmp/site');
    process.exit(2);
  }
  return path.resolve(dir);
}
const siteDir = outDir();

async function main(): Promise<void> {
  const register = await renderInferredRegister();
  const changed = await writeIfChanged(inferredGuideFile, register);
  log(`${path.relative(repoRoot, inferredGuideFile)} ${changed ? 'rewritten from spec/inferred/ (commit it)' : 'up to date'}`);
  // The working tree is final from here on: its content keys the build cache (scripts/docs/build-cache.ts).
  if (process.argv.includes('--no-cache')) {
    await forgetSiteKey(repoRoot, siteDir); // built outside the cache: no tree is vouched for
    await buildSite(register);
  }
  else await withSiteCache(repoRoot, siteDir, () => buildSite(register), log);
}

async function buildSite(register: string): Promise<void> {
  await rm(siteDir, { recursive: true, force: true });
  await mkdir(path.join(siteDir, 'assets'), { recursive: true });
  await Promise.all(ASSETS.map((a) => copyFile(path.join(repoRoot, 'scripts/docs', a), path.join(siteDir, 'assets', a))));
  const { integrity, script } = await copyRedocScript(siteDir);

  const sources = await readGuides();
  const nav = sources.map(({ slug, title }) => ({ slug, title }));
  const entries = await loadRegisterEntries(renderMarkdown(register).html);
  const ref = (id: 'storefront' | 'admin' | 'workbench') => references.find((r) => r.id === id)!;
  const webhooks = dereferenceWithProvenance('webhooks', entries);

  const [storefront, admin, workbench, events, guides, changelog] = await Promise.all([
    step('storefront reference (redocly build-docs)', () => buildOpenApiReference({ name: 'storefront', href: ref('storefront').href, title: ref('storefront').title, siteDir, guides: nav, entries, integrity, script })),
    step('admin reference (redocly build-docs)', () => buildOpenApiReference({ name: 'admin', href: ref('admin').href, title: ref('admin').title, siteDir, guides: nav, entries, integrity, script })),
    step('workbench reference (redocly build-docs)', () => buildOpenApiReference({ name: 'workbench', href: ref('workbench').href, title: ref('workbench').title, siteDir, guides: nav, entries, integrity, script })),
    step('events reference (from the AsyncAPI document)', async () => buildEvents(siteDir, await webhooks, nav)),
    step('guides (docs/guides/*.md)', () => buildGuides(siteDir, sources)),
    step('changelog (spec/versions.yaml, npm run diff\'s engine)', () => buildChangelogPage(siteDir, nav, log)),
  ]);
  for (const m of guides.missing) log(`warning: guide docs/guides/${m.slug}.md is missing${m.writtenBy ? ` (written by ${m.writtenBy})` : ''}; not linked`);
  await buildLanding(siteDir, guides.built);
  const llms = await step('llms.txt, llms-full.txt (for agents that read)', async () => writeLlms(siteDir, { guides: sources, webhooks: await webhooks, agentTools: await agentToolNames() }));

  const search: SearchEntry[] = [
    ...operationEntries(storefront, ref('storefront').href, 'Storefront API'),
    ...operationEntries(admin, ref('admin').href, 'Admin API'),
    ...operationEntries(workbench, ref('workbench').href, 'Workbench API'),
    ...events.search,
    ...guides.built.flatMap((g) => sectionEntries(guides.html.get(g.slug) ?? '', guideHref(g.slug), 'Guide', g.title)),
    ...sectionEntries(changelog.html, changelogPage.href, 'Changelog', changelogPage.title),
    ...llmsEntries,
  ];
  await writeSearchIndex(siteDir, search);
  const packed = await step('precompressed (brotli, gzip)', () => precompressSite(siteDir));
  log(`${packed.files} files of ${kb(packed.bytes)}: brotli ${kb(packed.br)}, gzip ${kb(packed.gzip)}`);
  log(`site built in ${elapsed()}: ${path.relative(repoRoot, siteDir)}/index.html, 3 API references, ${events.pages.length} event pages, ${guides.built.length} guides, the changelog (${changelog.shown} sections${changelog.missing.length ? `, ${changelog.missing.length} not built: see the warnings` : ''}), llms.txt (${kb(llms.index)}) and llms-full.txt (${kb(llms.full)}), ${search.length} search entries`);
}

main().catch((error: Error) => {
  console.error(`docs: failed after ${elapsed()}: ${error.message}`);
  process.exit(1);
});
