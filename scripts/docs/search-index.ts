// The site search index (assets/search-index.json): one small entry per thing a reader looks for,
// read by assets/search.js in the browser. t = title, u = link from the site root, k = kind, x = text.
import { HTTP_METHODS } from '../generate/names.js';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { JsonObject } from './provenance.js';

export interface SearchEntry {
  t: string;
  u: string;
  k: string;
  x: string;
}


export const plainText = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

const clip = (text: string, n = 240) => (text.length > n ? `${text.slice(0, n - 3)}...` : text);

/** Redoc 3's hash route of an operation: `#/<tag slug>/<operationid lowercased>`. */
export function redocRoute(tag: string | undefined, operationId: string): string {
  const slug = (tag ?? 'other').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `#/${slug}/${operationId.toLowerCase()}`;
}

/** One entry per operation of an OpenAPI document, linking to its Redoc route. */
export function operationEntries(doc: JsonObject, href: string, kind: string): SearchEntry[] {
  const out: SearchEntry[] = [];
  for (const [p, item] of Object.entries<JsonObject>(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      out.push({ t: op.summary ?? op.operationId, u: `${href}${redocRoute(op.tags?.[0], op.operationId)}`, k: kind, x: clip(`${method.toUpperCase()} ${p} · ${op.operationId} · ${plainText(String(op.description ?? ''))}`) });
    }
  }
  return out;
}

/** One entry per h1-h3 section of a rendered page (headings must carry ids). */
export function sectionEntries(html: string, href: string, kind: string, pageTitle: string): SearchEntry[] {
  const out: SearchEntry[] = [];
  const parts = html.split(/(?=<h[1-3] id=")/);
  for (const part of parts) {
    const m = /^<h([1-3]) id="([^"]+)">([\s\S]*?)<\/h\1>/.exec(part);
    if (!m) continue;
    const title = plainText(m[3]);
    out.push({ t: m[1] === '1' ? title : `${title} (${pageTitle})`, u: m[1] === '1' ? href : `${href}#${m[2]}`, k: kind, x: clip(plainText(part.slice(m[0].length))) });
  }
  return out;
}

export async function writeSearchIndex(siteDir: string, entries: SearchEntry[]): Promise<void> {
  await writeFile(path.join(siteDir, 'assets/search-index.json'), JSON.stringify(entries));
}
