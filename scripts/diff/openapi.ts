// OpenAPI changes, rated by `redocly diff` (its `diff-recommended` rules give each change a semver
// impact: `major` = breaking). Redocly resolves external $refs itself, so the split documents are
// compared as they are and every location points at the real file and line. Redocly names a change in
// a shared component under the first operation it met it through; openapi-usage.ts names them all.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../lib/repo.js';
import { runTool } from '../lib/run-tool.js';
import { isDocumentationOnly } from './impact.js';
import { operationUsage, type OperationUsage } from './openapi-usage.js';
import type { Change, DocumentDiff } from './types.js';
import { unescapePointerSegment } from '../../src/contract/json-pointer.js';

const CONFIG = path.join(repoRoot, 'scripts/diff/redocly-diff.yaml');

interface RedoclyChange {
  path: string;
  kind: string;
  impact: 'major' | 'minor' | 'patch';
  property?: string;
  verdicts: { ruleId: string; message: string; location?: { file: string; line: number; col: number } }[];
  base?: Located;
  revision?: Located;
}

interface Located {
  file: string;
  pointer: string;
  line: number;
  col: number;
}

/** `#/paths/~1orders/get/responses/...` -> subject `GET /orders`, path `responses/...`. */
function subjectOf(pointer: string): { subject: string; rest: string } {
  const parts = pointer.replace(/^#\//, '').split('/').map(unescapePointerSegment);
  if (parts[0] === 'paths' && parts.length >= 3 && /^(get|put|post|delete|patch|options|head|trace)$/.test(parts[2])) {
    return { subject: `${parts[2].toUpperCase()} ${parts[1]}`, rest: parts.slice(3).join('/') };
  }
  if (parts[0] === 'paths' && parts.length >= 2) return { subject: parts[1], rest: parts.slice(2).join('/') };
  return { subject: parts[0] || '(root)', rest: parts.slice(1).join('/') };
}

const decode = unescapePointerSegment;

/** Redocly's impact, with a change to documentation alone (impact.ts) as docs-only. */
function impactOf(c: RedoclyChange): Change['impact'] {
  if (c.impact === 'major') return 'breaking';
  const segments = [...c.path.replace(/^#\/?/, '').split('/').filter(Boolean).map(decode), ...(c.property ? [c.property] : [])];
  return isDocumentationOnly(segments) ? 'docs-only' : 'non-breaking';
}

/**
 * Subject and reach of one change: the component (or split file) that changed and every operation using
 * it; a change inside one operation's own description keeps that operation and Redocly's path below it.
 */
function place(c: RedoclyChange, usage: { base: OperationUsage; revision: OperationUsage }) {
  // redocly prints paths relative to its working directory, the repository root (runTool's cwd).
  const at = (l: Located) => ({ file: path.resolve(repoRoot, l.file), pointer: l.pointer });
  const base = c.base && at(c.base);
  const revision = c.revision && at(c.revision);
  const affects = [
    ...new Set([...(base ? usage.base.operationsAt(base.file, base.pointer) : []), ...(revision ? usage.revision.operationsAt(revision.file, revision.pointer) : [])]),
  ].sort();
  const fallback = subjectOf(c.path);
  const where = revision ?? base;
  if (!where || affects.length === 0) return { ...fallback, affects: undefined };
  const owner = (revision ? usage.revision : usage.base).ownerOf(where.file, where.pointer);
  if (owner.name === fallback.subject) return { ...fallback, affects };
  const below = where.pointer.slice(owner.pointer.length).split('/').filter(Boolean).map(decode);
  return { subject: owner.name, rest: below.join('/'), affects };
}

export async function diffOpenApi(baseFile: string, revisionFile: string): Promise<DocumentDiff> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-diff-'));
  try {
    const out = path.join(dir, 'diff.json');
    const usages = Promise.all([operationUsage(baseFile), operationUsage(revisionFile)]);
    usages.catch(() => undefined); // awaited below, after redocly; a failure surfaces there
    const result = await runTool(
      'redocly',
      ['diff', baseFile, revisionFile, '--config', CONFIG, '--format', 'json', '--output', out, '--fail-on', 'none'],
      { capture: true, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
    const text = await readFile(out, 'utf8').catch(() => undefined);
    if (result.code !== 0 || !text) {
      throw new Error(`redocly diff ${baseFile} ${revisionFile} failed (exit ${result.code}):\n${(result.stderr + result.stdout).trim()}`);
    }
    const report = JSON.parse(text) as { infoVersions: { base: string; revision: string }; changes: RedoclyChange[] };
    const [base, revision] = await usages;
    const changes: Change[] = report.changes
      .filter((c) => !(c.path === '#/info' && c.property === 'version')) // the version is the policy's business
      .map((c) => {
        const { subject, rest, affects } = place(c, { base, revision });
        const verdict = c.verdicts[0];
        const where = verdict?.location ?? c.revision ?? c.base;
        return {
          impact: impactOf(c),
          action: c.kind,
          subject,
          affects,
          // A component's own `required` list changed: its pointer already ends with the property.
          path: [rest, rest.split('/').pop() === c.property ? undefined : c.property].filter(Boolean).join(' · '),
          message: verdict?.message ?? `${c.kind} (${c.impact})`,
          rule: verdict?.ruleId,
          // redocly prints paths relative to its working directory, the repository root (runTool's cwd).
          location: where ? { file: path.resolve(repoRoot, where.file), line: where.line, col: where.col } : undefined,
        };
      });
    const operationIds = { ...base.operationIds, ...revision.operationIds };
    return { kind: 'openapi', baseVersion: report.infoVersions.base, revisionVersion: report.infoVersions.revision, changes, operationIds };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
