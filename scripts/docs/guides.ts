// Renders every docs/guides/*.md to docs/site/guides/<name>.html inside the shared layout, and copies the
// images they show (docs/guides/images/) beside them.
// Order: the guides listed in pages.ts first, then any other .md found (so a new guide shows up
// without touching this script). Listed guides that do not exist yet are reported, not invented.
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { renderPage, type NavGuide } from './layout.js';
import { renderMarkdown } from './markdown.js';
import { guideHref, guides as listed, guidesDir } from './pages.js';

export interface BuiltGuide extends NavGuide {
  summary: string;
}

export interface GuidesResult {
  built: BuiltGuide[];
  /** Rendered bodies, for the search index. */
  html: Map<string, string>;
  missing: { slug: string; writtenBy?: string }[];
}

export async function readGuides(): Promise<{ slug: string; source: string; title: string; summary: string }[]> {
  const files = (await readdir(guidesDir)).filter((f) => f.endsWith('.md')).sort();
  const present = new Set(files.map((f) => f.slice(0, -3)));
  const order = [...listed.map((g) => g.slug).filter((s) => present.has(s)), ...[...present].filter((s) => !listed.some((g) => g.slug === s))];
  return Promise.all(
    order.map(async (slug) => {
      const source = await readFile(path.join(guidesDir, `${slug}.md`), 'utf8');
      const title = /^#\s+(.+)$/m.exec(source)?.[1].replace(/`/g, '').trim() ?? slug;
      const summary = listed.find((g) => g.slug === slug)?.summary ?? '';
      return { slug, source, title, summary };
    }),
  );
}

export async function buildGuides(siteDir: string, sources: Awaited<ReturnType<typeof readGuides>>): Promise<GuidesResult> {
  const nav: NavGuide[] = sources.map(({ slug, title }) => ({ slug, title }));
  await mkdir(path.join(siteDir, 'guides'), { recursive: true });
  const rendered = new Map<string, string>();
  for (const guide of sources) {
    const { html } = renderMarkdown(guide.source);
    rendered.set(guide.slug, html);
    const page = renderPage({ title: guide.title, body: html, root: '../', guides: nav, self: guideHref(guide.slug) });
    await writeFile(path.join(siteDir, guideHref(guide.slug)), page);
  }
  // Screenshots the guides show (docs/guides/images/), at the same relative path beside the pages.
  if (existsSync(path.join(guidesDir, 'images'))) await cp(path.join(guidesDir, 'images'), path.join(siteDir, 'guides/images'), { recursive: true });
  const missing = listed.filter((g) => !sources.some((s) => s.slug === g.slug)).map(({ slug, writtenBy }) => ({ slug, writtenBy }));
  return { built: sources.map(({ slug, title, summary }) => ({ slug, title, summary })), html: rendered, missing };
}
