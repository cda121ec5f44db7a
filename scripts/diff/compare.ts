// diffDocuments(base, revision): the one entry point the CLI and the tests use. Reads the kind from
// the document's top-level key and hands it to the matching engine, then applies the policy.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { listFiles } from '../lib/files.js';
import { judge, type Verdict } from './policy.js';
import type { DocumentDiff, Kind } from './types.js';

/** YAML or JSON (a JSON document is YAML too): the kind is the top-level `openapi` or `asyncapi` key. */
export async function kindOf(file: string): Promise<Kind> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${file}: cannot read it (${error.code ?? error.message}); give the path of an OpenAPI or AsyncAPI document`);
  });
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid YAML or JSON (${(error as Error).message.split('\n')[0]}); fix the syntax and run the diff again`);
  }
  const keys = doc && typeof doc === 'object' && !Array.isArray(doc) ? doc : {};
  if ('asyncapi' in keys) return 'asyncapi';
  if ('openapi' in keys) return 'openapi';
  throw new Error(`${file} has neither an \`openapi\` nor an \`asyncapi\` key at the top level; give an OpenAPI 3.x or AsyncAPI 3.x document (YAML or JSON)`);
}

export interface DiffResult extends DocumentDiff {
  verdict: Verdict;
}

/**
 * No change at all: every file under the folder of the base document (where its `$ref`s live) has the
 * same bytes under the revision's, so the engines (Redocly's diff, the AsyncAPI parser: seconds each) are
 * not run. The result is the one they would give: no change, the version read from the document.
 */
export async function unchangedDocument(baseFile: string, revisionFile: string): Promise<DiffResult | undefined> {
  if (!(await sameTree(path.dirname(baseFile), path.dirname(revisionFile)))) return undefined;
  const doc = YAML.parse(await readFile(revisionFile, 'utf8')) as { openapi?: unknown; info?: { version?: unknown } };
  const version = String(doc?.info?.version ?? '');
  const d: DocumentDiff = { kind: doc && 'openapi' in doc ? 'openapi' : 'asyncapi', baseVersion: version, revisionVersion: version, changes: [] };
  return { ...d, verdict: judge(d) };
}

async function sameTree(a: string, b: string): Promise<boolean> {
  const [left, right] = await Promise.all([listFiles(a), listFiles(b)]);
  if (left.length === 0 || left.length !== right.length || left.some((f, i) => f !== right[i])) return false;
  for (const f of left) {
    const [x, y] = await Promise.all([readFile(path.join(a, f)), readFile(path.join(b, f))]);
    if (!x.equals(y)) return false;
  }
  return true;
}

export async function diffDocuments(baseFile: string, revisionFile: string): Promise<DiffResult> {
  const [baseKind, revisionKind] = await Promise.all([kindOf(baseFile), kindOf(revisionFile)]);
  if (baseKind !== revisionKind) throw new Error(`cannot compare ${baseKind} (${baseFile}) with ${revisionKind} (${revisionFile})`);
  // Each engine is loaded when first needed: the AsyncAPI parser alone takes seconds to import.
  const d =
    baseKind === 'openapi'
      ? await (await import('./openapi.js')).diffOpenApi(baseFile, revisionFile)
      : await (await import('./asyncapi.js')).diffAsyncApi(baseFile, revisionFile);
  return { ...d, verdict: judge(d) };
}
