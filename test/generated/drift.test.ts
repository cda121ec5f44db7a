// `npm run generate` is reproducible byte for byte, and `check:generated` names every stale file
// after a spec edit.
import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRepo, type RepoCopy } from '../helpers/repo-copy.js';
import { run } from '../helpers/run.js';

async function hashTree(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(out, await hashTree(path.join(dir, entry.name), rel));
    else out[rel] = createHash('sha256').update(await readFile(path.join(dir, entry.name))).digest('hex');
  }
  return out;
}

describe('generated/ drift gate', () => {
  let repo: RepoCopy;
  const tsx = (args: string[]) => run(path.join(repo.dir, 'node_modules/.bin/tsx'), args, { cwd: repo.dir });

  beforeAll(async () => {
    repo = await copyRepo();
  });
  afterAll(async () => repo?.remove());

  it('generates identical bytes twice, equal to the committed generated/', async () => {
    const committed = await hashTree(path.join(repo.dir, 'generated'));
    const first = await tsx(['scripts/generate.ts']);
    expect(first.code, first.output).toBe(0);
    const once = await hashTree(path.join(repo.dir, 'generated'));
    const second = await tsx(['scripts/generate.ts']);
    expect(second.code, second.output).toBe(0);
    const twice = await hashTree(path.join(repo.dir, 'generated'));
    expect(twice).toEqual(once);
    expect(once).toEqual(committed);
  });

  it('passes the check on an unchanged spec', async () => {
    const result = await tsx(['scripts/generate.ts', '--check']);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(/generated\/ matches the spec/);
  });

  it('fails after a spec edit, naming the stale files', async () => {
    const file = path.join(repo.dir, 'spec/openapi/components/schemas/Country.yaml');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace(/^( +)continent:/m, '$1continent_code:\n$1  type: string\n$1continent:'));
    try {
      const result = await tsx(['scripts/generate.ts', '--check']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/stale: +generated\/types\/storefront\.ts/);
      expect(result.stderr).toMatch(/stale: +generated\/spec-info\.ts/);
      expect(result.stderr).toMatch(/npm run generate/);
    } finally {
      await writeFile(file, original);
    }
  });

  it('names a generated file edited by hand, and one that should not exist', async () => {
    const file = path.join(repo.dir, 'generated/operations/storefront.ts');
    const original = await readFile(file, 'utf8');
    await writeFile(file, `${original}\n// hand edit\n`);
    await writeFile(path.join(repo.dir, 'generated/leftover.ts'), 'export {};\n');
    const result = await tsx(['scripts/generate.ts', '--check']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/stale: +generated\/operations\/storefront\.ts/);
    expect(result.stderr).toMatch(/extra: +generated\/leftover\.ts/);
  });
});
