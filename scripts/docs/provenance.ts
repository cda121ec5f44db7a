// Where each element of the contract comes from, as a reader sees it: "Stated by the platform" or
// "Designed here" with a link to its entry in the register (guides/inferred-decisions.html).
//
// The spec marks elements with `x-contract-source` (seed | inferred), and the register's `where`
// pointers (`file#pointer`, relative to spec/) say which entry explains each designed one. Both only
// make sense per file, before $refs are resolved, so documents are loaded through a ref-parser file
// resolver that stamps every marked node with `x-provenance` as it reads the file. The stamp then
// survives bundling and dereferencing, whatever shape the renderer wants.
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { documents, specDir, workbenchDocument, type DocumentName } from '../lib/repo.js';
import { readRegister, REGISTER_FILES, type RegisterEntry } from '../lib/register.js';
import { escapePointerSegment } from '../../src/contract/json-pointer.js';

export const PROVENANCE = 'x-provenance';
export const registerPage = 'guides/inferred-decisions.html';

export interface Provenance {
  kind: 'stated' | 'designed';
  /** The register entry explaining a designed element (absent when no entry covers it). */
  entry?: { id: string; title: string; anchor: string };
}

export type JsonObject = Record<string, any>;

interface Located extends RegisterEntry {
  anchor: string;
}

/** The register with each entry's heading anchor, exactly as the rendered register page spells it. */
export async function loadRegisterEntries(registerHtml: string): Promise<Located[]> {
  const anchors = new Map<string, string>();
  for (const m of registerHtml.matchAll(/<h3 id="([^"]+)">((?:SF|AD|WH)-\d{3}):/g)) anchors.set(m[2], m[1]);
  const entries: Located[] = [];
  for (const file of REGISTER_FILES) {
    for (const e of await readRegister(file)) entries.push({ ...e, anchor: anchors.get(e.id) ?? e.id.toLowerCase() });
  }
  return entries;
}

function covers(where: string, location: string): number {
  const [wFile, wPtr = ''] = where.split('#');
  const [lFile, lPtr = ''] = location.split('#');
  if (wFile !== lFile) return -1;
  if (wPtr === '' || lPtr === wPtr || lPtr.startsWith(`${wPtr}/`)) return wPtr.length;
  return -1;
}

/** The most specific register entry whose `where` covers a location. */
export function coveringEntry(entries: Located[], location: string): Located | undefined {
  let best: Located | undefined;
  let bestLength = -1;
  for (const e of entries) {
    for (const w of e.where) {
      const length = covers(w, location);
      if (length > bestLength) [best, bestLength] = [e, length];
    }
  }
  return best;
}

const escapePointer = escapePointerSegment;

/** Stamps every node carrying x-contract-source in one parsed file. */
function stamp(node: unknown, file: string, pointer: string, entries: Located[]): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    node.forEach((child, i) => stamp(child, file, `${pointer}/${i}`, entries));
    return;
  }
  const obj = node as JsonObject;
  const source = obj['x-contract-source'];
  if (source === 'seed') obj[PROVENANCE] = { kind: 'stated' } satisfies Provenance;
  if (source === 'inferred') {
    const e = coveringEntry(entries, `${file}#${pointer}`);
    obj[PROVENANCE] = { kind: 'designed', entry: e && { id: e.id, title: e.title.trim(), anchor: e.anchor } } satisfies Provenance;
  }
  for (const [key, child] of Object.entries(obj)) if (key !== PROVENANCE) stamp(child, file, `${pointer}/${escapePointer(key)}`, entries);
}

function resolver(entries: Located[], transform?: (doc: JsonObject) => void) {
  return {
    order: 1,
    canRead: /\.ya?ml$/i,
    async read(file: { url: string }): Promise<string> {
      const absolute = file.url.startsWith('file://') ? new URL(file.url).pathname : file.url;
      const parsed = YAML.parse(await readFile(absolute, 'utf8'));
      stamp(parsed, path.relative(specDir, absolute).split(path.sep).join('/'), '', entries);
      transform?.(parsed);
      return JSON.stringify(parsed);
    },
  };
}

/** A document with external files inlined (internal $refs kept) and every marked node stamped. */
export function bundleWithProvenance(name: DocumentName | 'workbench', entries: Located[]): Promise<JsonObject> {
  return $RefParser.bundle(name === 'workbench' ? workbenchDocument : documents[name], { resolve: { file: resolver(entries) } } as any) as Promise<JsonObject>;
}

/** A document with every $ref resolved (shared objects stay shared) and every marked node stamped. */
export function dereferenceWithProvenance(name: DocumentName, entries: Located[]): Promise<JsonObject> {
  return $RefParser.dereference(documents[name], {
    resolve: { file: resolver(entries) },
    dereference: { circular: 'ignore' },
  } as any) as Promise<JsonObject>;
}

/** Where a badge links, relative to a page one folder below the site root. */
export function badgeHref(p: Provenance): string {
  return p.kind === 'designed' && p.entry ? `../${registerPage}#${p.entry.anchor}` : `../${registerPage}#stated-or-designed`;
}

/** The badge as Markdown, for renderers that only take descriptions (Redoc). */
export function badgeMarkdown(p: Provenance): string {
  if (p.kind === 'stated') return `*Stated by the platform.*`;
  if (!p.entry) return `*Designed here.*`;
  return `*Designed here:* [${p.entry.id}, ${p.entry.title.replace(/[[\]]/g, '')}](${badgeHref(p)})`;
}

/** The badge as plain words, for fields a renderer shows as plain text. */
export function badgeText(p: Provenance): string {
  if (p.kind === 'stated') return 'Stated by the platform.';
  return p.entry ? `Designed here (register ${p.entry.id}).` : 'Designed here.';
}
