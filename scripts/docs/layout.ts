// The one header every page of the site shares (landing page, guides, event pages, and the two Redoc
// references, where it is put above Redoc's own markup), and the HTML shell of the hand-written pages.
// The header links home, to each reference and to each guide, and holds the site search box.
// No external assets, and every link is relative so the site works from docs/site/ on disk and under
// the mock's /docs.
import { changelogPage, guideHref, references } from './pages.js';

export interface NavGuide {
  slug: string;
  title: string;
}

export interface HeaderInput {
  /** '' for pages at the site root, '../' for pages one folder down. */
  root: string;
  guides: NavGuide[];
  /** The page's own href (relative to the site root), marked current in the nav. */
  self: string;
}

export interface PageInput extends HeaderInput {
  title: string;
  body: string;
  /** Extra classes for <main>, e.g. `wide` for the event tables. */
  mainClass?: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function link(root: string, href: string, text: string, self: string): string {
  const current = href === self || (href.endsWith('/index.html') && self.startsWith(href.slice(0, -'index.html'.length))) ? ' aria-current="page"' : '';
  return `<a href="${root}${href}"${current}>${escapeHtml(text)}</a>`;
}

/** The shared header: <link>s for its stylesheet go in <head>, this goes first in <body>. */
export function renderHeader({ root, guides, self }: HeaderInput): string {
  const refs = [...references.map((r) => link(root, r.href, r.title.replace(/ reference$/, ''), self)), link(root, changelogPage.href, changelogPage.title, self)].join('\n      ');
  const guideLinks = guides.map((g) => link(root, guideHref(g.slug), g.title, self)).join('\n      ');
  return `<header class="site-header" data-site-root="${root}">
  <div class="site-header-row">
    <a class="site-brand" href="${root}index.html">Storefront contract</a>
    <nav class="site-refs" aria-label="References">
      ${refs}
    </nav>
    <div class="site-search" role="search">
      <input type="search" id="site-search" placeholder="Search the site" aria-label="Search references and guides" autocomplete="off">
      <ol id="site-search-results" hidden></ol>
    </div>
  </div>
  <nav class="site-guides" aria-label="Guides">
      <span>Guides:</span>
      ${guideLinks}
  </nav>
</header>`;
}

/** Stylesheet and script tags of the header, for any page's <head>. */
export function headerAssets(root: string): string {
  return `<link rel="stylesheet" href="${root}assets/header.css">
  <script src="${root}assets/search.js" defer></script>`;
}

export function renderPage({ title, body, root, guides, self, mainClass }: PageInput): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Storefront contract</title>
  <link rel="icon" href="data:,">
  ${headerAssets(root)}
  <link rel="stylesheet" href="${root}assets/site.css">
</head>
<body class="site">
${renderHeader({ root, guides, self })}
  <main${mainClass ? ` class="${mainClass}"` : ''}>
${body}
  </main>
  <footer>Built by <code>npm run docs</code> from <code>spec/</code> and <code>docs/guides/</code>. The YAML in <code>spec/</code> is the source of truth.</footer>
</body>
</html>
`;
}
