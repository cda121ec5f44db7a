// ErrorCode (src/contract/envelope.ts) is the contract's known codes: every code the two OpenAPI
// documents name (their "Codes used" lists and every error example) is in it, and what it holds beyond
// them is only the workbench pipeline's HTTP-level refusals. The library types `content.error.code` as
// these codes, open to others, so a code the spec adds without the union would go unoffered.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../../scripts/lib/repo.js';

/** Sent by the pipeline for refusals no operation documents: 405, 406, 417, 500, 503. */
const PIPELINE_ONLY = ['expectation_failed', 'internal_error', 'method_not_allowed', 'not_acceptable', 'service_unavailable'];

async function yamlFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await yamlFiles(at)));
    else if (entry.name.endsWith('.yaml')) files.push(at);
  }
  return files;
}

/** The literals of `export type ErrorCode = | 'a' | 'b' ...;` in the library's source. */
async function errorCodeUnion(): Promise<string[]> {
  const source = await readFile(path.join(repoRoot, 'src/contract/envelope.ts'), 'utf8');
  const union = /export type ErrorCode =([^;]+);/.exec(source)?.[1] ?? '';
  return [...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]).sort();
}

/** Codes the spec names: in a "Codes used ... Clients must tolerate" sentence, and in error examples. */
async function specCodes(): Promise<{ listed: Set<string>; examples: Set<string> }> {
  const listed = new Set<string>();
  const examples = new Set<string>();
  for (const file of await yamlFiles(path.join(repoRoot, 'spec/openapi'))) {
    const text = await readFile(file, 'utf8');
    for (const m of text.matchAll(/Codes used[\s\S]*?Clients must tolerate/g)) for (const c of m[0].matchAll(/`([a-z_]+)`/g)) if (c[1] !== 'code' && c[1] !== 'details') listed.add(c[1]);
    const doc = parse(text) as { value?: { success?: unknown; content?: { error?: { code?: unknown } } } } | null;
    const code = doc?.value?.success === false ? doc.value.content?.error?.code : undefined;
    if (typeof code === 'string') examples.add(code);
  }
  return { listed, examples };
}

describe('ErrorCode', () => {
  it('holds every code the spec names, and beyond them only the pipeline refusals', async () => {
    const union = await errorCodeUnion();
    const { listed, examples } = await specCodes();
    // The scan itself finds the lists and the examples.
    expect(listed.size).toBeGreaterThanOrEqual(10);
    expect([...examples]).toEqual(expect.arrayContaining(['not_found', 'invalid_parameter', 'unauthorized']));
    const named = [...new Set([...listed, ...examples])].sort();
    expect(named.filter((c) => !union.includes(c)), 'codes the spec names that ErrorCode lacks').toEqual([]);
    expect(union.filter((c) => !named.includes(c))).toEqual(PIPELINE_ONLY);
  });
});
