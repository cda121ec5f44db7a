// diffDocuments(base, revision): the one entry point the CLI and the tests use. Reads the kind from
// the document's top-level key and hands it to the matching engine, then applies the policy.
import { readFile } from 'node:fs/promises';
import { diffAsyncApi } from './asyncapi.js';
import { diffOpenApi } from './openapi.js';
import { judge, type Verdict } from './policy.js';
import type { DocumentDiff, Kind } from './types.js';

export async function kindOf(file: string): Promise<Kind> {
  const text = await readFile(file, 'utf8');
  if (/^asyncapi\s*:/m.test(text)) return 'asyncapi';
  if (/^openapi\s*:/m.test(text)) return 'openapi';
  throw new Error(`${file} has neither an \`openapi:\` nor an \`asyncapi:\` key at the top level`);
}

export interface DiffResult extends DocumentDiff {
  verdict: Verdict;
}

export async function diffDocuments(baseFile: string, revisionFile: string): Promise<DiffResult> {
  const [baseKind, revisionKind] = await Promise.all([kindOf(baseFile), kindOf(revisionFile)]);
  if (baseKind !== revisionKind) throw new Error(`cannot compare ${baseKind} (${baseFile}) with ${revisionKind} (${revisionFile})`);
  const d = baseKind === 'openapi' ? await diffOpenApi(baseFile, revisionFile) : await diffAsyncApi(baseFile, revisionFile);
  return { ...d, verdict: judge(d) };
}
