// docs/site/index.html: the one page that links every reference, every event family and every guide.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FAMILIES, familyHref } from './events.js';
import type { BuiltGuide } from './guides.js';
import { escapeHtml, renderPage } from './layout.js';
import { llmsFiles } from './llms.js';
import { changelogPage, guideHref, references } from './pages.js';

function card(href: string, title: string, summary: string): string {
  return `<li><a href="${href}">${escapeHtml(title)}</a><p>${escapeHtml(summary)}</p></li>`;
}

export async function buildLanding(siteDir: string, guides: BuiltGuide[]): Promise<void> {
  const families = FAMILIES.map((f) => `<a href="${familyHref(f.id)}">${escapeHtml(f.label.replace(/ \(.*\)$/, ''))}</a>`).join(' · ');
  const body = `<h1>Storefront contract</h1>
<p>The contract of the commerce platform's <strong>Storefront REST API</strong> and its <strong>webhook delivery
contract</strong> (beta). Everything here is built from the OpenAPI and AsyncAPI documents in <code>spec/</code>.</p>
<p>Each element of the references says where it comes from: <span class="badge stated">Stated by the platform</span>
(its interface document states it) or <span class="badge designed">Designed here</span> (the platform leaves it
"not shown"; the badge links to the decision and its reason in the
<a href="${guideHref('inferred-decisions')}">register of designed decisions</a>).</p>
<h2 id="references">References</h2>
<ul class="cards">
  ${references.map((r) => card(r.href, r.title, r.summary)).join('\n  ')}
</ul>
<p>Event families: ${families}.</p>
<p><a href="${changelogPage.href}">${changelogPage.title}</a>: ${escapeHtml(changelogPage.summary)}</p>
<h2 id="guides">Guides</h2>
<ul class="cards">
  ${guides.map((g) => card(guideHref(g.slug), g.title, g.summary)).join('\n  ')}
</ul>
<h2 id="for-agents">For agents that read</h2>
<p><a href="${llmsFiles.index}">${llmsFiles.index}</a> lists every guide, reference, operation and event as links
(the llmstxt.org format), and what a coding agent uses: the MCP server of
<code>npx storefront-contract mcp</code> and the skill file of the tools package.
<a href="${llmsFiles.full}">${llmsFiles.full}</a> holds every guide's Markdown in one file.</p>
<h2 id="two-commands">Two commands</h2>
<pre><code>npm ci &amp;&amp; npm start   # the mock workbench on http://127.0.0.1:4010 (this site is at /docs)
npm ci &amp;&amp; npm test    # lint, generated-artifact drift check, and the test suite</code></pre>`;
  await writeFile(path.join(siteDir, 'index.html'), renderPage({ title: 'Home', body, root: '', guides, self: 'index.html' }));
}
