// The one HTML shell every hand-written page shares (landing page and guides): a nav bar to the
// three references and the guides, the page body, one local stylesheet. No external assets, and
// every link is relative so the site works from docs/site/ on disk and under the mock's /docs.
import { guideHref, references } from './pages.js';

export interface NavGuide {
  slug: string;
  title: string;
}

export interface PageInput {
  title: string;
  body: string;
  /** '' for pages at the site root, '../' for pages one folder down. */
  root: string;
  guides: NavGuide[];
  /** The page's own href (relative to the site root), marked current in the nav. */
  self: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function link(root: string, href: string, text: string, self: string): string {
  const current = href === self ? ' aria-current="page"' : '';
  return `<a href="${root}${href}"${current}>${escapeHtml(text)}</a>`;
}

export function renderPage({ title, body, root, guides, self }: PageInput): string {
  const refs = references.map((r) => link(root, r.href, r.title.replace(/ reference$/, ''), self)).join('\n        ');
  const guideLinks = guides.map((g) => `<li>${link(root, guideHref(g.slug), g.title, self)}</li>`).join('\n          ');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Storefront contract</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${root}assets/site.css">
</head>
<body>
  <header class="topbar">
    <a class="brand" href="${root}index.html">Storefront contract</a>
    <nav aria-label="References">
        ${refs}
    </nav>
  </header>
  <div class="layout">
    <aside>
      <nav aria-label="Guides">
        <h2>Guides</h2>
        <ul>
          ${guideLinks}
        </ul>
      </nav>
    </aside>
    <main>
${body}
    </main>
  </div>
  <footer>Built by <code>npm run docs</code> from <code>spec/</code> and <code>docs/guides/</code>. The YAML in <code>spec/</code> is the source of truth.</footer>
</body>
</html>
`;
}
