// The webhook events reference, rendered here from the dereferenced AsyncAPI document instead of by
// @asyncapi/html-template: that template made one 4.4 MB page (about 4 s to load, 16 s to build) whose
// payloads showed as collapsed "AllOf" placeholders. Here:
//   events/index.html      the delivery contract (info description, headers, envelope) and a catalog of
//                          every event with its summary, family and provenance
//   events/<family>.html   one page per event family: each event's headers, its payload with allOf merged
//                          (every field with type, required mark, description, example, provenance) and
//                          its signed example delivery
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { marked } from 'marked';
import { escapeHtml, renderPage, type NavGuide } from './layout.js';
import { addHeadingIds } from './markdown.js';
import { badgeHref, PROVENANCE, type JsonObject, type Provenance } from './provenance.js';
import { fieldRows, type FieldRow } from './schema-rows.js';
import type { SearchEntry } from './search-index.js';

/** The ten event families the platform states, in its order, with the label it gives them. */
export const FAMILIES: { id: string; label: string }[] = [
  { id: 'orders', label: 'Orders' },
  { id: 'payments', label: 'Payments (including refunds)' },
  { id: 'shipping', label: 'Shipping' },
  { id: 'invoices', label: 'Invoices' },
  { id: 'carts', label: 'Carts (including wishlists)' },
  { id: 'catalog', label: 'Catalog (products, variants, categories, attributes, inventory)' },
  { id: 'coupons-promotions', label: 'Coupons & promotions' },
  { id: 'customers', label: 'Customers (addresses, KYC, loyalty)' },
  { id: 'store', label: 'Store' },
  { id: 'marketplace', label: 'Marketplace' },
];

export const familyHref = (family: string) => `events/${family}.html`;
export const eventAnchor = (event: string) => event.replace(/\./g, '-');

interface EventMessage {
  name: string;
  family: string;
  message: JsonObject;
}

/** Markdown of a description to HTML; descriptions are short, so no heading ids beyond the page's. */
export function md(text: string | undefined, inline = false): string {
  if (!text) return '';
  const html = marked.parse(text.trim(), { gfm: true, headerIds: false, mangle: false }) as string;
  return inline ? html.replace(/^<p>([\s\S]*)<\/p>\s*$/, '$1') : html;
}

export function badge(p: Provenance | undefined): string {
  if (!p) return '';
  if (p.kind === 'stated') return `<a class="badge stated" href="${badgeHref(p)}" title="Stated in the platform's interface document">Stated by the platform</a>`;
  const why = p.entry ? `${p.entry.id}: ${p.entry.title}` : 'designed for this contract';
  return `<a class="badge designed" href="${badgeHref(p)}" title="${escapeHtml(why)}">Designed here${p.entry ? ` (${p.entry.id})` : ''}</a>`;
}

function fieldTable(rows: FieldRow[]): string {
  const body = rows
    .map((r) => {
      const name = r.path.split(/\.(?![^{]*\})/).pop()!;
      return `<tr><td class="d${Math.min(r.depth, 8)}" title="${escapeHtml(r.path)}">${escapeHtml(r.depth ? name : r.path)}${r.required ? ' <span class="req" title="required">*</span>' : ''}</td><td class="type">${escapeHtml(r.type)}</td><td>${md(r.description)}${badge(r.provenance)}</td><td>${r.example ? `<code>${escapeHtml(r.example)}</code>` : ''}</td></tr>`;
    })
    .join('\n');
  return `<table class="fields"><thead><tr><th>Field (<span class="req">*</span> required)</th><th>Type</th><th>Description</th><th>Example</th></tr></thead><tbody>
${body}
</tbody></table>`;
}

function exampleDelivery(example: JsonObject | undefined, secret: string): string {
  if (!example) return '<p>No example.</p>';
  const headers = Object.entries<string>(example.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n');
  const request = `POST /webhooks/storefront HTTP/1.1\nHost: hooks.example.in\n${headers}\n\n${JSON.stringify(example.payload, null, 2)}`;
  return `<p>${md(example.summary ?? example.name ?? '', true)}. The <code>X-SVC-Signature</code> is real: HMAC-SHA256,
keyed with the example secret <code>${escapeHtml(secret)}</code>, of the body's compact serialisation (<code>JSON.stringify</code>,
keys in the order shown), which is what a sender puts on the wire.</p>
<pre><code>${escapeHtml(request)}</code></pre>`;
}

function eventSection(e: EventMessage, secret: string): string {
  const m = e.message;
  const example = Array.isArray(m.examples) ? m.examples[0] : undefined;
  const headerRows = fieldRows(m.headers ?? {}, example?.headers);
  const bodyRows = fieldRows(m.payload ?? {}, example?.payload);
  return `<section class="event" id="${eventAnchor(e.name)}">
<h2><code>${escapeHtml(e.name)}</code> ${badge(m[PROVENANCE])}</h2>
<p><strong>${escapeHtml(m.title ?? '')}.</strong> ${escapeHtml(m.summary ?? '')}</p>
${md(m.description)}
<h3>Headers</h3>
${fieldTable(headerRows)}
<h3>Body</h3>
${fieldTable(bodyRows)}
<h3>Example delivery</h3>
${exampleDelivery(example, secret)}
</section>`;
}

function familyNav(current: string, root: string): string {
  const items = [`<li><a href="${root}events/index.html"${current === 'index' ? ' aria-current="page"' : ''}>All events</a></li>`];
  for (const f of FAMILIES) items.push(`<li><a href="${root}${familyHref(f.id)}"${current === f.id ? ' aria-current="page"' : ''}>${escapeHtml(f.label.replace(/ \(.*\)$/, ''))}</a></li>`);
  return `<ul class="families" aria-label="Event families">${items.join('')}</ul>`;
}

function catalogTable(events: EventMessage[]): string {
  const rows = events.map((e) => {
    const m = e.message;
    const family = FAMILIES.find((f) => f.id === e.family)?.label ?? e.family;
    return `<tr><td><a href="${e.family}.html#${eventAnchor(e.name)}"><code>${escapeHtml(e.name)}</code></a></td><td>${escapeHtml(m.summary ?? '')}</td><td>${escapeHtml(family)}</td><td>${m['x-marketplace-scoped'] ? 'yes' : 'no'}</td><td>${badge(m[PROVENANCE])}</td></tr>`;
  });
  return `<table class="fields"><thead><tr><th>Event</th><th>When</th><th>Family</th><th>Marketplace-scoped</th><th>Source</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

export interface EventsResult {
  pages: string[];
  search: SearchEntry[];
}

export async function buildEvents(siteDir: string, doc: JsonObject, guides: NavGuide[]): Promise<EventsResult> {
  await mkdir(path.join(siteDir, 'events'), { recursive: true });
  const secret = String(doc['x-example-signing-secret'] ?? '');
  const events: EventMessage[] = Object.entries<JsonObject>(doc.components?.messages ?? {}).map(([name, message]) => ({ name, family: message['x-event-family'], message }));
  const unknown = events.filter((e) => !FAMILIES.some((f) => f.id === e.family));
  if (unknown.length) throw new Error(`spec/asyncapi/messages: ${unknown.map((e) => `${e.name} has x-event-family ${JSON.stringify(e.family)}`).join('; ')}; use one of ${FAMILIES.map((f) => f.id).join(', ')} (scripts/docs/events.ts).`);
  const search: SearchEntry[] = [];
  const pages: string[] = [];

  const anyMessage = events[0]?.message ?? {};
  const headerSchema = anyMessage.headers?.allOf?.[0] ?? {};
  const envelopeSchema = anyMessage.payload?.allOf?.[0] ?? {};
  const catalogBody = `<h1>Webhook events reference</h1>
${familyNav('index', '../')}
<p>Version ${escapeHtml(doc.info?.version ?? '')} of the webhook delivery contract. ${events.length} events in ${FAMILIES.length} families;
each family has its own page with every event's headers, payload fields and a signed example delivery.</p>
<h2 id="catalog">Catalog of events</h2>
${catalogTable(events)}
${addHeadingIds(md(doc.info?.description))}
<h2 id="headers">Headers of every delivery</h2>
${md(headerSchema.description)}${badge(headerSchema[PROVENANCE])}
${fieldTable(fieldRows(headerSchema, anyMessage.examples?.[0]?.headers))}
<h2 id="envelope">Body of every delivery: the envelope</h2>
${md(envelopeSchema.description)}${badge(envelopeSchema[PROVENANCE])}
${fieldTable(fieldRows(envelopeSchema, anyMessage.examples?.[0]?.payload))}
<p>Each event narrows <code>event</code> and <code>payload.event</code> to its name and gives <code>payload.properties</code> its own model: see the family pages.</p>`;
  await writeFile(path.join(siteDir, 'events/index.html'), renderPage({ title: 'Webhook events', body: catalogBody, root: '../', guides, self: 'events/index.html', mainClass: 'wide' }));
  pages.push('events/index.html');
  search.push({ t: 'Webhook events: catalog, headers, envelope', u: 'events/index.html', k: 'Events', x: 'Every event with its summary; delivery rules, signature, retries, headers and the envelope.' });

  for (const family of FAMILIES) {
    const members = events.filter((e) => e.family === family.id);
    const list = members.map((e) => `<li><a href="#${eventAnchor(e.name)}"><code>${escapeHtml(e.name)}</code></a>: ${escapeHtml(e.message.summary ?? '')}</li>`).join('\n');
    const body = `<h1>${escapeHtml(family.label)} events</h1>
${familyNav(family.id, '../')}
<p>${members.length} event${members.length === 1 ? '' : 's'}. Every delivery is a signed POST with the <a href="index.html#headers">common headers</a> and the
<a href="index.html#envelope">envelope</a>; the tables below show each event's whole body, with <code>allOf</code> merged.</p>
<ul>
${list}
</ul>
${members.map((e) => eventSection(e, secret)).join('\n')}`;
    const href = familyHref(family.id);
    await writeFile(path.join(siteDir, href), renderPage({ title: `${family.label} events`, body, root: '../', guides, self: href, mainClass: 'wide' }));
    pages.push(href);
    for (const e of members) search.push({ t: e.name, u: `${href}#${eventAnchor(e.name)}`, k: 'Event', x: `${e.message.title ?? ''}. ${e.message.summary ?? ''}` });
  }
  return { pages, search };
}
