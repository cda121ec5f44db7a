// Prints a document's changes for people (grouped by operation or event, breaking first) and, under
// GitHub Actions, as `::error`/`::notice` annotations on the changed lines of the pull request.
import path from 'node:path';
import { repoRoot } from '../lib/repo.js';
import type { DiffResult } from './compare.js';
import { IMPACT_RANK } from './impact.js';
import { describeBump } from './policy.js';
import type { Change } from './types.js';

export interface Labels {
  /** How a file is shown: repository-relative, or `<ref>:spec/...` for the base snapshot. */
  show(file: string): string;
  /** The file in the working tree, when the location is there (for annotations). */
  workingFile(file: string): string | undefined;
}

export const plainLabels: Labels = {
  show: (file) => path.relative(process.cwd(), file) || file,
  workingFile: (file) => (file.startsWith(repoRoot + path.sep) ? path.relative(repoRoot, file) : undefined),
};

export function snapshotLabels(snapshotDir: string, ref: string): Labels {
  return {
    show: (file) => (file.startsWith(snapshotDir + path.sep) ? `${ref}:${path.relative(snapshotDir, file)}` : path.relative(repoRoot, file)),
    workingFile: (file) => (file.startsWith(repoRoot + path.sep) ? path.relative(repoRoot, file) : undefined),
  };
}

function line(c: Change, labels: Labels): string[] {
  const mark = c.impact === 'breaking' ? '✖ breaking    ' : c.impact === 'docs-only' ? '· docs-only   ' : '· non-breaking';
  const out = [`    ${mark} ${c.action.padEnd(8)} ${c.path || '(whole)'}`, `        ${c.message}${c.rule ? ` (${c.rule})` : ''}`];
  if (c.affects && (c.affects.length > 1 || c.affects[0] !== c.subject)) {
    out.push(`        affects ${c.affects.length} operation${c.affects.length === 1 ? '' : 's'}: ${c.affects.join(', ')}`);
  }
  if (c.location && c.location.line > 0) out.push(`        at ${labels.show(c.location.file)}:${c.location.line}${c.location.col ? `:${c.location.col}` : ''}`);
  return out;
}

export function formatReport(title: string, result: DiffResult, labels: Labels = plainLabels): string {
  const lines = [`${title} (${result.kind}, info.version ${result.baseVersion} -> ${result.revisionVersion})`];
  if (result.changes.length === 0) lines.push('  no changes');
  const bySubject = new Map<string, Change[]>();
  for (const c of result.changes) bySubject.set(c.subject, [...(bySubject.get(c.subject) ?? []), c]);
  const rank = (changes: Change[]) => Math.max(...changes.map((c) => IMPACT_RANK[c.impact]));
  const subjects = [...bySubject.entries()].sort(([, a], [, b]) => rank(b) - rank(a));
  for (const [subject, changes] of subjects) {
    lines.push(`  ${subject}`);
    for (const c of changes.sort((a, b) => IMPACT_RANK[b.impact] - IMPACT_RANK[a.impact])) lines.push(...line(c, labels));
  }
  const reached = affected(result.changes);
  if (reached.length) lines.push(`  affected: ${reached.join(', ')}`);
  const v = result.verdict;
  lines.push(`  ${describeBump(result, v)}`);
  lines.push(`  ${v.breaking} breaking, ${v.nonBreaking} non-breaking, ${v.docsOnly} docs-only: ${v.ok ? 'PASS' : 'FAIL'}: ${v.reason}`);
  return lines.join('\n');
}

const OPERATION_OR_EVENT = /^(?:(?:GET|PUT|POST|DELETE|PATCH|OPTIONS|HEAD|TRACE) |event )/;

/** Every operation and event any change reaches, directly or through a shared component. */
export function affected(changes: Change[]): string[] {
  const all = changes.flatMap((c) => [...(c.affects ?? []), c.subject]).filter((s) => OPERATION_OR_EVENT.test(s));
  return [...new Set(all)].sort();
}

const esc = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escProp = (s: string) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** Workflow commands; a removed node has its location in the base, so it is pinned to the document. */
export function formatAnnotations(documentPath: string, result: DiffResult, labels: Labels): string[] {
  if (result.verdict.ok) return [];
  return result.changes
    .filter((c) => c.impact === 'breaking')
    .map((c) => {
      const file = (c.location && labels.workingFile(c.location.file)) ?? documentPath;
      const where = c.location && labels.workingFile(c.location.file) ? `,line=${c.location.line}` : '';
      const reach = c.affects && c.affects[0] !== c.subject ? ` (affects ${c.affects.join(', ')})` : '';
      return `::error file=${escProp(file)}${where},title=${escProp(`Breaking change: ${c.subject}`)}::${esc(`${c.path}: ${c.message}${reach}. ${result.verdict.reason}`)}`;
    });
}
