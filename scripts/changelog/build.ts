// The changelog between two sides: each of the three documents compared by the diff engine of
// `npm run diff` (scripts/diff/compare.ts: redocly diff for OpenAPI, @asyncapi/diff for AsyncAPI, and
// the one classification into breaking / non-breaking / docs-only, scripts/diff/impact.ts), then
// gathered into one model that render.ts prints as Markdown or JSON. Nothing is rated here.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { diffDocuments, type DiffResult } from '../diff/compare.js';
import { IMPACTS } from '../diff/impact.js';
import { bumpBetween, bumpCovers, largerBump, requiredBump } from '../diff/policy.js';
import { affected } from '../diff/report.js';
import type { Bump, Change, Impact, Kind } from '../diff/types.js';
import { DOCUMENT_PATHS, type Side } from './sides.js';

export type DocumentName = keyof typeof DOCUMENT_PATHS;

export const DOCUMENT_TITLES: Record<DocumentName, string> = {
  storefront: 'Storefront API',
  admin: 'Admin webhook API',
  webhooks: 'Webhook events',
};

export interface SideInfo {
  label: string;
  kind: Side['kind'];
  version?: string;
  commit?: string;
  date?: string;
}

export interface Entry {
  impact: Impact;
  document: DocumentName;
  /** The operation, event or component that changed (`GET /orders`, `event order.created`, `components/schemas/Pricing.yaml`). */
  subject: string;
  /** Where below the subject. */
  path: string;
  action: string;
  message: string;
  rule?: string;
  /** Every operation (`GET /orders`) and event (`event order.created`) the change reaches, sorted. */
  reaches: string[];
  /** The changed line, in the spec folder of the side it is in. */
  location?: { side: 'old' | 'new'; file: string; line: number };
}

export interface DocumentSummary {
  name: DocumentName;
  title: string;
  /** spec/openapi/storefront.yaml */
  file: string;
  kind?: Kind;
  status: 'changed' | 'unchanged' | 'added' | 'removed' | 'absent';
  oldVersion?: string;
  newVersion?: string;
  counts: Record<Impact, number>;
  /** The bump of info.version the changes need, the one made, and the smallest version carrying it. */
  bump: { needed: Bump; made?: Bump; suggested?: string; covered: boolean };
}

export interface Reached {
  document: DocumentName;
  /** `GET /orders` or `event order.created`. */
  name: string;
  operationId?: string;
  counts: Record<Impact, number>;
}

export interface Changelog {
  old: SideInfo;
  new: SideInfo;
  documents: DocumentSummary[];
  /** Breaking first, then non-breaking, then docs-only; within each, by document and subject. */
  changes: Entry[];
  reached: Reached[];
  /** The largest bump any document needs. */
  bump: Bump;
  /** When both sides are releases: the bump between their versions, and whether it carries the changes. */
  release?: { made?: Bump; needed: Bump; covered: boolean };
}

const zero = (): Record<Impact, number> => ({ breaking: 0, 'non-breaking': 0, 'docs-only': 0 });
const info = (s: Side): SideInfo => ({ label: s.label, kind: s.kind, version: s.version, commit: s.commit, date: s.date });

/**
 * The bump a release number needs for changes needing `bump`: the same below, except under 0.x, where
 * the minor is the breaking position (npm's ^0.2.0 accepts 0.2.x only) and the patch takes the rest.
 */
export function releaseBump(bump: Bump, fromVersion: string): Bump {
  if (!/^v?0\./.test(fromVersion)) return bump;
  return bump === 'major' ? 'minor' : bump === 'none' ? 'none' : 'patch';
}

/** One document on both sides, and the engine's diff when both have it. */
export interface Comparison {
  name: DocumentName;
  rel: string;
  before: string;
  after: string;
  has: [boolean, boolean];
  diff?: DiffResult;
}

/** The engine's part: each document of one side compared with the other's (the documents together: Redocly runs in its own processes). */
export function compareSides(oldSide: Pick<Side, 'specDir'>, newSide: Pick<Side, 'specDir'>): Promise<Comparison[]> {
  return Promise.all(
    (Object.keys(DOCUMENT_PATHS) as DocumentName[]).map(async (name) => {
      const rel = DOCUMENT_PATHS[name];
      const before = path.join(oldSide.specDir, rel);
      const after = path.join(newSide.specDir, rel);
      const has: [boolean, boolean] = [existsSync(before), existsSync(after)];
      return { name, rel, before, after, has, diff: has[0] && has[1] ? await diffDocuments(before, after) : undefined };
    }),
  );
}

export async function buildChangelog(oldSide: Side, newSide: Side): Promise<Changelog> {
  return assembleChangelog(oldSide, newSide, await compareSides(oldSide, newSide));
}

/** The changelog's own part: the engine's results grouped, with what each change reaches and the bumps. */
export function assembleChangelog(oldSide: Side, newSide: Side, results: Comparison[]): Changelog {
  const documents: DocumentSummary[] = [];
  const changes: Entry[] = [];
  const operationIds = new Map<string, string>();
  for (const { name, rel, before, after, has, diff } of results) {
    const summary: DocumentSummary = { name, title: DOCUMENT_TITLES[name], file: `spec/${rel}`, status: 'absent', counts: zero(), bump: { needed: 'none', covered: true } };
    documents.push(summary);
    if (!diff) {
      if (has[0] === has[1]) continue;
      // A whole document appears or goes: an addition, or a removal that breaks whoever used it.
      const impact: Impact = has[1] ? 'non-breaking' : 'breaking';
      summary.status = has[1] ? 'added' : 'removed';
      summary.counts[impact] = 1;
      summary.bump = { needed: requiredBump([{ impact }]), covered: false };
      changes.push({ impact, document: name, subject: `spec/${rel}`, path: '', action: summary.status, message: has[1] ? 'document added' : 'document removed', reaches: [] });
      continue;
    }
    summary.kind = diff.kind;
    summary.status = diff.changes.length ? 'changed' : 'unchanged';
    summary.oldVersion = diff.baseVersion;
    summary.newVersion = diff.revisionVersion;
    summary.bump = diff.verdict.bump;
    for (const [label, id] of Object.entries(diff.operationIds ?? {})) operationIds.set(`${name}|${label}`, id);
    for (const c of diff.changes) {
      summary.counts[c.impact]++;
      changes.push(entry(name, c, [oldSide.specDir, newSide.specDir], [before, after]));
    }
  }
  const order = (e: Entry) => [IMPACTS.indexOf(e.impact), Object.keys(DOCUMENT_PATHS).indexOf(e.document)];
  changes.sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0] - y[0] || x[1] - y[1] || a.subject.localeCompare(b.subject) || a.path.localeCompare(b.path);
  });

  const reached = new Map<string, Reached>();
  for (const c of changes) {
    for (const name of c.reaches) {
      const key = `${c.document}|${name}`;
      const r = reached.get(key) ?? { document: c.document, name, operationId: operationIds.get(key), counts: zero() };
      r.counts[c.impact]++;
      reached.set(key, r);
    }
  }
  const bump = documents.reduce<Bump>((b, d) => largerBump(b, d.bump.needed), 'none');
  const changelog: Changelog = {
    old: info(oldSide),
    new: info(newSide),
    documents,
    changes,
    reached: [...reached.values()].sort((a, b) => Object.keys(DOCUMENT_PATHS).indexOf(a.document) - Object.keys(DOCUMENT_PATHS).indexOf(b.document) || a.name.localeCompare(b.name)),
    bump,
  };
  if (oldSide.version && newSide.version) {
    const needed = releaseBump(bump, oldSide.version);
    const made = bumpBetween(oldSide.version, newSide.version);
    changelog.release = { made, needed, covered: made !== undefined && bumpCovers(made, needed) };
  }
  return changelog;
}

function entry(document: DocumentName, c: Change, specDirs: [string, string], roots: [string, string]): Entry {
  const reaches = affected([c]);
  let location: Entry['location'];
  if (c.location && c.location.line > 0) {
    // The engines name files absolutely: keep the side and the path below its spec folder.
    const side = c.location.file.startsWith(specDirs[1] + path.sep) || c.location.file === roots[1] ? 'new' : 'old';
    const base = side === 'new' ? specDirs[1] : specDirs[0];
    location = { side, file: `spec/${path.relative(base, c.location.file).split(path.sep).join('/')}`, line: c.location.line };
  }
  return { impact: c.impact, document, subject: c.subject, path: c.path, action: c.action, message: c.message, rule: c.rule, reaches, location };
}

