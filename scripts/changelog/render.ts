// The changelog as Markdown (what people read: the command's default output, and the docs site's
// Changelog page, rendered by the site's one Markdown renderer) and as JSON (what programs read).
import type { Bump, Impact } from '../diff/types.js';
import { DOCUMENT_TITLES, type Changelog, type Entry, type SideInfo } from './build.js';

export const JSON_FORMAT_VERSION = 1;

export function renderJson(c: Changelog): string {
  const groups = Object.fromEntries((['breaking', 'non-breaking', 'docs-only'] as Impact[]).map((impact) => [impact, c.changes.filter((e) => e.impact === impact)]));
  return `${JSON.stringify({ formatVersion: JSON_FORMAT_VERSION, old: c.old, new: c.new, bump: c.bump, release: c.release, documents: c.documents, groups, reached: c.reached }, null, 2)}\n`;
}

const GROUPS: [Impact, string, string][] = [
  ['breaking', 'Breaking changes', 'someone relying on the older version breaks: a client, a server certified against it, or a webhook receiver'],
  ['non-breaking', 'Non-breaking changes', 'additions and relaxed rules: nobody breaks'],
  ['docs-only', 'Docs-only changes', 'descriptions, summaries, titles and examples: only what people read changed'],
];

/** A code span holding any text (a fence longer than any run of backticks inside; control characters shown as escapes). */
export function codeSpan(raw: string): string {
  const text = raw.replace(/[\u0000-\u001f]/g, (c) => JSON.stringify(c).slice(1, -1));
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Text that Markdown prints as it is (no emphasis, link, HTML or table cell boundary made of it). */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*[\]<>~|&]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, (c) => `\\${c}`)
    .replace(/\s*\n\s*/g, ' ');
}

/**
 * An engine's message as Markdown: names in backticks stay code, the values a change compares
 * (Redocly's "changed from '…' to '…'", @asyncapi/diff's ("…" -> "…")) become code, the rest is escaped.
 */
export function messageMarkdown(message: string): string {
  const parts: string[] = [];
  // Values compared by the engines are long and full of punctuation (patterns): code spans.
  const compared = /changed from '([\s\S]*)' to '([\s\S]*)'(\.?)$/.exec(message) ?? undefined;
  const arrow = compared ? undefined : /\((".*"|[^()]*) -> (".*"|[^()]*)\)$/.exec(message) ?? undefined;
  const head = compared ? message.slice(0, compared.index) : arrow ? message.slice(0, arrow.index) : message;
  let last = 0;
  for (const m of head.matchAll(/`([^`\s]{1,120})`/g)) {
    parts.push(escapeMarkdown(head.slice(last, m.index)), codeSpan(m[1]));
    last = m.index! + m[0].length;
  }
  parts.push(escapeMarkdown(head.slice(last)));
  if (compared) parts.push(`changed from ${codeSpan(compared[1])} to ${codeSpan(compared[2])}${compared[3]}`);
  if (arrow) parts.push(`(${codeSpan(arrow[1])} → ${codeSpan(arrow[2])})`);
  return parts.join('');
}

function sideText(s: SideInfo): string {
  const commit = s.commit ? `commit ${codeSpan(s.commit.slice(0, 12))}${s.date ? `, ${s.date}` : ''}` : '';
  return `**${escapeMarkdown(s.label)}**${commit ? ` (${commit})` : ''}`;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function reachText(e: Entry, c: Changelog): string {
  if (!e.reaches.length) return '';
  const names = e.reaches.map((name) => {
    const id = c.reached.find((r) => r.document === e.document && r.name === name)?.operationId;
    return id ? `${codeSpan(id)} (${escapeMarkdown(name)})` : codeSpan(name.replace(/^event /, ''));
  });
  const what = e.reaches.every((r) => r.startsWith('event ')) ? (e.reaches.length === 1 ? 'event' : 'events') : e.reaches.length === 1 ? 'operation' : 'operations';
  return `Reaches ${e.reaches.length > 1 ? `${e.reaches.length} ${what}` : `the ${what}`}: ${names.join(', ')}.`;
}

/**
 * The provenance markers' values as published words: `seed` is "stated by the platform", `inferred` is
 * "designed here" (README, "Fact or design"); the marker's value names the source document otherwise.
 */
export function publishedMessage(e: Pick<Entry, 'path' | 'subject' | 'message'>): string {
  if (!/x-contract-source|x-delivery-rules\/sources/.test(`${e.subject}/${e.path}`)) return e.message;
  return e.message.replace(/"seed"/g, '"stated by the platform"').replace(/"inferred"/g, '"designed here"');
}

function entryMarkdown(e: Entry, c: Changelog): string {
  const where = e.path ? ` ${codeSpan(e.path)}` : '';
  const rule = e.rule ? ` (${escapeMarkdown(e.rule)})` : '';
  // Redocly says nothing more than its impact for some changes ("modified (patch)"): the class says it already.
  const bare = /^(added|removed|modified) \((major|minor|patch)\)$/.test(e.message);
  const lines = [`- **${escapeMarkdown(e.subject)}**${where} ${escapeMarkdown(e.action)}${bare ? '.' : `: ${messageMarkdown(publishedMessage(e))}${rule}`}`];
  const reach = reachText(e, c);
  if (reach) lines.push(`  ${reach}`);
  if (e.location) lines.push(`  At ${codeSpan(`${e.location.file}:${e.location.line}`)} (${e.location.side === 'new' ? c.new.label : c.old.label}).`);
  return lines.join('\n');
}

export function bumpSentence(c: Changelog): string {
  const needs: Record<Bump, string> = {
    major: 'a **major** version (breaking changes)',
    minor: 'a **minor** version (non-breaking changes, no breaking one)',
    patch: 'a **patch** version (documentation only)',
    none: 'no new version',
  };
  if (c.bump === 'none') return 'No document needs a new version.';
  let text = `The changes need ${needs[c.bump]} of the documents they touch.`;
  if (c.release) {
    const { made, needed, covered } = c.release;
    const zero = /^0\./.test(c.old.version ?? '') && needed !== c.bump ? ' (below 1.0.0 the minor is the breaking position, as in npm ranges)' : '';
    text += covered
      ? ` The release number moved ${c.old.version} → ${c.new.version} (${made}), which carries them${zero}.`
      : ` The release number moved ${c.old.version} → ${c.new.version} (${made ?? 'not upwards'}), short of the ${needed} bump they need${zero}.`;
  }
  return text;
}

export interface MarkdownOptions {
  /** Heading level of the title (1 for a file, 2 inside the docs site's page). */
  level?: number;
  /** The title line; default `Contract changelog: <old> → <new>`. */
  title?: string;
}

export function renderMarkdown(c: Changelog, options: MarkdownOptions = {}): string {
  const h = (n: number) => '#'.repeat(Math.min(6, (options.level ?? 1) + n));
  const counts = (['breaking', 'non-breaking', 'docs-only'] as Impact[]).map((i) => `${c.changes.filter((e) => e.impact === i).length} ${i}`);
  const out: string[] = [
    `${h(0)} ${options.title ?? `Contract changelog: ${escapeMarkdown(c.old.label)} → ${escapeMarkdown(c.new.label)}`}`,
    '',
    `From ${sideText(c.old)} to ${sideText(c.new)}: ${c.changes.length ? `${plural(c.changes.length, 'change')} (${counts.join(', ')})` : 'no change to the contract'}. ${bumpSentence(c)}`,
    '',
    '| Document | info.version | Breaking | Non-breaking | Docs-only | Needs |',
    '|---|---|---|---|---|---|',
  ];
  for (const d of c.documents) {
    if (d.status === 'absent') continue;
    const versions = d.status === 'added' ? 'added' : d.status === 'removed' ? 'removed' : d.oldVersion === d.newVersion ? `${d.newVersion} (unchanged)` : `${d.oldVersion} → ${d.newVersion}`;
    const needs = d.bump.needed === 'none' ? 'nothing' : d.bump.covered ? `${d.bump.needed} (carried)` : `${d.bump.needed}${d.bump.suggested ? `: ${d.bump.suggested}` : ''}`;
    out.push(`| ${d.title} (${codeSpan(d.file)}) | ${escapeMarkdown(versions)} | ${d.counts.breaking} | ${d.counts['non-breaking']} | ${d.counts['docs-only']} | ${needs} |`);
  }
  for (const [impact, heading, meaning] of GROUPS) {
    const group = c.changes.filter((e) => e.impact === impact);
    if (!group.length) continue;
    out.push('', `${h(1)} ${heading} (${group.length})`, '', `${meaning[0].toUpperCase()}${meaning.slice(1)}.`);
    for (const document of Object.keys(DOCUMENT_TITLES) as (keyof typeof DOCUMENT_TITLES)[]) {
      const mine = group.filter((e) => e.document === document);
      if (!mine.length) continue;
      out.push('', `${h(2)} ${DOCUMENT_TITLES[document]}`, '', ...mine.map((e) => entryMarkdown(e, c)));
    }
  }
  if (c.reached.length) {
    out.push('', `${h(1)} Operations and events reached (${c.reached.length})`, '', '| Document | Operation or event | Breaking | Non-breaking | Docs-only |', '|---|---|---|---|---|');
    for (const r of c.reached) {
      const name = r.operationId ? `${codeSpan(r.operationId)} ${escapeMarkdown(r.name)}` : codeSpan(r.name.replace(/^event /, ''));
      out.push(`| ${DOCUMENT_TITLES[r.document]} | ${name} | ${r.counts.breaking} | ${r.counts['non-breaking']} | ${r.counts['docs-only']} |`);
    }
  }
  return `${out.join('\n')}\n`;
}
