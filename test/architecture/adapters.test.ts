// Adding a receiver adapter is one file in src/webhooks/adapters/ plus what this test then asks for:
// the library's export entry, an example app, the e2e suite's kind and the guide's row. No list of
// adapters is kept by hand without a test that fails when it misses one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { LIBRARY, publishedPackage } from '../helpers/manifests.js';
import { ADAPTERS } from '../webhooks/apps/index.js';

const adapters = readdirSync(path.join(repoRoot, 'src/webhooks/adapters'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''));
const library = publishedPackage(LIBRARY);
const guide = readFileSync(path.join(repoRoot, 'docs/guides/receiving-webhooks.md'), 'utf8');

describe('receiver adapters', () => {
  it('are found (the folder is not empty)', () => {
    expect(adapters).toEqual(expect.arrayContaining(['node', 'fetch']));
  });

  it.each(adapters)('%s: has its export entry, example app, e2e kind and guide row', (name) => {
    const source = path.join(repoRoot, 'src/webhooks/adapters', `${name}.ts`);
    expect(library.entries, `"./webhooks/${name}" in packages/storefront-contract/package.json exports`).toContainEqual([`./webhooks/${name}`, source]);
    expect(readdirSync(path.join(repoRoot, 'examples/receivers')), `examples/receivers/${name}.ts`).toContain(`${name}.ts`);
    expect(ADAPTERS as readonly string[], `'${name}' in ADAPTERS of test/webhooks/apps/index.ts`).toContain(name);
    expect(guide, `a row for storefront-contract/webhooks/${name} in docs/guides/receiving-webhooks.md`).toContain(`storefront-contract/webhooks/${name}`);
  });

  it('every ./webhooks/<name> export is an adapter file', () => {
    const exported = library.entries.map(([subpath]) => subpath).filter((s) => /^\.\/webhooks\/[^/]+$/.test(s));
    expect(exported.sort()).toEqual(adapters.map((a) => `./webhooks/${a}`).sort());
  });
});
