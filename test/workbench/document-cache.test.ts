// The cache of dereferenced documents (workbench/contract/document-cache.ts), on a copy of spec/ and a
// cache directory of its own: a hit gives the parser's own graph (same values, same sharing, same files);
// it is never stale (an edit to any file the document reaches, or to the document, is seen at the next
// load; a file gone fails as the parser fails); a broken entry is a miss; `off` writes nothing; the
// directory keeps a bounded number of entries; the model loads through it.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { CACHE_ENV, cachedDereference, documentCacheStats, entryName } from '../../workbench/contract/document-cache.js';
import { dereferenceFile, forgetLoadedDocuments, loadDocument } from '../../workbench/contract/model.js';
import { encodeShared } from '../../workbench/contract/shared-graph.js';

let dir: string;
let spec: string;
let admin: string;
let cache: string;
let env: NodeJS.ProcessEnv;
const EXAMPLE = 'components/examples/CreateWebhookUnauthorized.yaml';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'document-cache-'));
  spec = path.join(dir, 'spec');
  await cp(path.join(repoRoot, 'spec'), spec, { recursive: true });
  admin = path.join(spec, 'openapi/admin.yaml');
  cache = path.join(dir, 'cache');
  env = { [CACHE_ENV]: cache };
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const stats = () => ({ ...documentCacheStats });
const delta = (before: typeof documentCacheStats) => ({ hits: documentCacheStats.hits - before.hits, misses: documentCacheStats.misses - before.misses, writes: documentCacheStats.writes - before.writes });
const relativeParts = (files: Map<string, unknown>) => Object.fromEntries([...files].map(([file, value]) => [path.relative(path.dirname(admin), file), value]));
/** The example's message in the document: what an edit of the example file changes. */
const exampleMessage = (document: any) =>
  document.paths['/webhooks'].post.responses['401'].content['application/json'].examples.CreateWebhookUnauthorized.value.message as string;

describe('cache of dereferenced documents', () => {
  it('a miss parses and writes an entry; a hit is the same graph, with the same sharing and the same files', async () => {
    const before = stats();
    const parsed = await cachedDereference(admin, dereferenceFile, env);
    expect(delta(before)).toEqual({ hits: 0, misses: 1, writes: 1 });
    expect(await readdir(cache)).toEqual([entryName(await readFile(admin))]);

    const hit = await cachedDereference(admin, dereferenceFile, env);
    expect(delta(before)).toEqual({ hits: 1, misses: 1, writes: 1 });
    expect(hit.document).not.toBe(parsed.document);
    expect([...hit.files.keys()].sort()).toEqual([...parsed.files.keys()].sort());
    // The encoding names every object reached twice: equal encodings are equal values with equal sharing.
    expect(encodeShared(hit.document, relativeParts(hit.files))).toEqual(encodeShared(parsed.document, relativeParts(parsed.files)));
    // A file the document reaches is the very object the document holds, as the parser gives it.
    const part = hit.files.get(path.join(path.dirname(admin), EXAMPLE));
    expect(part).toBeDefined();
    expect(hit.document.paths['/webhooks'].post.responses['401'].content['application/json'].examples.CreateWebhookUnauthorized).toBe(part);
  });

  it('is never stale: an edit to a file the document reaches, then to the document itself, is seen at the next load', async () => {
    const example = path.join(path.dirname(admin), EXAMPLE);
    await writeFile(example, (await readFile(example, 'utf8')).replace('Missing or invalid admin token.', 'Edited in the copy.'));
    let before = stats();
    const edited = await cachedDereference(admin, dereferenceFile, env);
    expect(delta(before)).toEqual({ hits: 0, misses: 1, writes: 1 });
    expect(exampleMessage(edited.document)).toMatch(/^Edited in the copy\./);
    before = stats();
    expect(exampleMessage((await cachedDereference(admin, dereferenceFile, env)).document)).toMatch(/^Edited in the copy\./);
    expect(delta(before)).toEqual({ hits: 1, misses: 0, writes: 0 });

    // The document's own bytes name the entry: an edit there is a new entry.
    await writeFile(admin, (await readFile(admin, 'utf8')).replace(/^(\s*title:\s*)(.*)$/m, '$1"Edited title"'));
    before = stats();
    const retitled = await cachedDereference(admin, dereferenceFile, env);
    expect(delta(before)).toEqual({ hits: 0, misses: 1, writes: 1 });
    expect(retitled.document.info.title).toBe('Edited title');
    expect(await readdir(cache)).toContain(entryName(await readFile(admin)));
  });

  it('a file the document reaches gone fails as the parser fails, not from the cache', async () => {
    const example = path.join(path.dirname(admin), EXAMPLE);
    const text = await readFile(example, 'utf8');
    await rm(example);
    try {
      await expect(cachedDereference(admin, dereferenceFile, env)).rejects.toThrow(/CreateWebhookUnauthorized\.yaml/);
    } finally {
      await writeFile(example, text);
    }
  });

  it('a broken entry is a miss and is written again; off reads and writes nothing', async () => {
    const entry = path.join(cache, entryName(await readFile(admin)));
    await writeFile(entry, '{"format": "sfc-dereferenced-v1", "trunc');
    let before = stats();
    const again = await cachedDereference(admin, dereferenceFile, env);
    expect(delta(before)).toEqual({ hits: 0, misses: 1, writes: 1 });
    expect(again.document.info.title).toBe('Edited title');
    expect(JSON.parse(await readFile(entry, 'utf8')).format).toBe('sfc-dereferenced-v1');

    const off = path.join(dir, 'off');
    before = stats();
    await cachedDereference(admin, dereferenceFile, { [CACHE_ENV]: 'off' });
    expect(delta(before)).toEqual({ hits: 0, misses: 0, writes: 0 });
    await expect(readdir(off)).rejects.toThrow();
  });

  it('keeps at most 32 entries, the least recently used going first', async () => {
    const small = path.join(dir, 'small');
    const bounded = { [CACHE_ENV]: path.join(dir, 'bounded') };
    const file = path.join(small, 'doc.yaml');
    await cp(path.join(spec, 'openapi/components'), path.join(small, 'components'), { recursive: true });
    for (let i = 0; i < 35; i++) {
      await writeFile(file, `openapi: 3.1.0\ninfo: { title: "v${i}", version: "1" }\npaths: {}\ncomponents:\n  examples:\n    e: { $ref: "./${EXAMPLE}" }\n`);
      await cachedDereference(file, dereferenceFile, bounded);
    }
    const names = await readdir(bounded[CACHE_ENV]);
    expect(names).toHaveLength(32);
    expect(names).toContain(entryName(await readFile(file)));
  });

  it('the model loads through it (the process cache directory)', async () => {
    const previous = process.env[CACHE_ENV];
    process.env[CACHE_ENV] = path.join(dir, 'model');
    try {
      const before = stats();
      const first = await loadDocument(admin, 'admin-copy');
      forgetLoadedDocuments();
      const second = await loadDocument(admin, 'admin-copy');
      expect(delta(before)).toEqual({ hits: 1, misses: 1, writes: 1 });
      expect(second.operations.map((op) => op.operationId)).toEqual(first.operations.map((op) => op.operationId));
      expect(exampleMessage(second.document)).toMatch(/^Edited in the copy\./);
    } finally {
      if (previous === undefined) delete process.env[CACHE_ENV];
      else process.env[CACHE_ENV] = previous;
      forgetLoadedDocuments();
    }
  });
});
