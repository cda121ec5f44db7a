// Concepts that live in one place, held by a scan of the shipped sources (src/, workbench/, conformance/,
// cli/): a second copy fails here, naming the file, instead of drifting silently.
//   - Ajv's error objects are read only by the library's format-errors.ts (instancePath, params);
//   - JSON-pointer segments are escaped and unescaped only by src/contract/json-pointer.ts;
//   - the base path is spelt only in the generated base paths (the library's contract/paths.ts reads it);
//   - a list's neighbour pages are computed only by workbench/http/paging.ts (sandbox, mock and simulator);
//   - the tools' cache folder (node_modules/.cache/storefront-contract) is named only by
//     workbench/contract/cache-dir.ts, which the build scripts import too (scripts/ is scanned for this one).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';

function sources(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(repoRoot, rel)).isDirectory()) return sources(rel);
    return rel.endsWith('.ts') && !rel.endsWith('.test.ts') ? [rel] : [];
  });
}

const files = ['src', 'workbench', 'conformance', 'cli'].flatMap(sources).map((file) => ({ file, text: readFileSync(path.join(repoRoot, file), 'utf8') }));
const code = (text: string) => text.replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, '');

describe('one place for each concept', () => {
  it.each([
    ['Ajv error objects', /\.instancePath\b/, ['src/validators/format-errors.ts']],
    ['JSON-pointer escaping', /(['"`])~[01]\1|\/~[01]\/g/, ['src/contract/json-pointer.ts']],
    ['the base path', /['"`]\/api\/v1\b/, []],
    ['the pagination block (neighbour pages)', /\b(next|previous)_page\s*:[^,\n]*\?/, ['workbench/http/paging.ts']],
  ] as const)('%s', (_concept, pattern, allowed) => {
    const found = files.filter(({ file, text }) => pattern.test(code(text)) && !(allowed as readonly string[]).includes(file)).map(({ file }) => file);
    expect(found).toEqual([]);
    // The pattern really fires: the one place holds what it looks for.
    for (const file of allowed) expect(pattern.test(code(files.find((f) => f.file === file)!.text)), file).toBe(true);
  });

  it('the tools\' cache folder', () => {
    const pattern = /['"`](node_modules\/)?\.cache\/storefront-contract|['"`]\.cache['"`],\s*['"`]storefront-contract['"`]/;
    const owner = 'workbench/contract/cache-dir.ts';
    const scanned = [...files, ...sources('scripts').map((file) => ({ file, text: readFileSync(path.join(repoRoot, file), 'utf8') }))];
    expect(scanned.filter(({ file, text }) => file !== owner && pattern.test(code(text))).map(({ file }) => file)).toEqual([]);
    expect(pattern.test(code(files.find((f) => f.file === owner)!.text)), owner).toBe(true);
  });

  it('the scan sees the files it guards', () => {
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining(['src/validators/format-errors.ts', 'workbench/mock/validate-request.ts', 'conformance/rest/bindings.ts']));
  });
});
