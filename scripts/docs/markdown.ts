// Markdown to HTML for the guides, with marked (a well-kept CommonMark/GFM renderer). Links are
// rewritten so the same .md reads well on GitHub and in the built site:
//   sibling guide `x.md`                  -> `x.html`
//   a spec root (`../../spec/openapi/storefront.yaml`) -> its rendered reference page
//   any other repository file              -> plain text with the path in a tooltip (the site does not
//                                            serve the repository, and a dead link is worse than none)
// Heading ids are added here, GitHub style, because marked dropped its own `headerIds` after v4.
import path from 'node:path';
import { marked } from 'marked';
import { references } from './pages.js';

const SPEC_PAGES: Record<string, string> = {
  'spec/openapi/storefront.yaml': references.find((r) => r.id === 'storefront')!.href,
  'spec/openapi/admin.yaml': references.find((r) => r.id === 'admin')!.href,
  'spec/asyncapi/webhooks.yaml': references.find((r) => r.id === 'events')!.href,
};
const REPO_FILE = 'repo-file:';

/** Where a link written in docs/guides/<file>.md points in the site, seen from guides/<file>.html. */
export function rewriteHref(href: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('//')) return href;
  const hashAt = href.indexOf('#');
  const target = hashAt === -1 ? href : href.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : href.slice(hashAt);
  const fromRepo = path.posix.normalize(path.posix.join('docs/guides', target));
  const guide = /^docs\/guides\/([^/]+)\.md$/.exec(fromRepo);
  if (guide) return `${guide[1]}.html${hash}`;
  if (SPEC_PAGES[fromRepo]) return `../${SPEC_PAGES[fromRepo]}`;
  return `${REPO_FILE}${fromRepo}`;
}

export function slugify(text: string): string {
  return text
    .replace(/<[^>]+>/g, '')
    .replace(/&[a-z#0-9]+;/gi, '')
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

export function addHeadingIds(html: string): string {
  const seen = new Map<string, number>();
  return html.replace(/<h([1-6])>([\s\S]*?)<\/h\1>/g, (_all, level: string, inner: string) => {
    const base = slugify(inner) || 'section';
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    const id = count === 0 ? base : `${base}-${count}`;
    return `<h${level} id="${id}">${inner}</h${level}>`;
  });
}

function replaceRepoLinks(html: string): string {
  return html.replace(/<a href="repo-file:([^"]*)"(?: title="[^"]*")?>([\s\S]*?)<\/a>/g, (_all, file: string, text: string) => {
    return `<span class="repo-file" title="File in the repository: ${file}">${text}</span>`;
  });
}

export interface RenderedMarkdown {
  title: string;
  html: string;
}

export function renderMarkdown(source: string): RenderedMarkdown {
  const html = marked.parse(source, {
    gfm: true,
    headerIds: false, // ids are added below, the same way for every marked version
    mangle: false,
    walkTokens(token: any) {
      if (token.type === 'link') token.href = rewriteHref(token.href);
    },
  }) as string;
  const title = /^#\s+(.+)$/m.exec(source)?.[1].replace(/`/g, '').trim() ?? 'Untitled';
  return { title, html: replaceRepoLinks(addHeadingIds(html)) };
}
