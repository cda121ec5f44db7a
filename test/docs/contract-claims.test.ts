// Issue 37 item 23: what the docs say about the contract comes from the contract, or names the test that
// holds it. The docs site's reference summaries count the operations from the OpenAPI documents (not a
// hand-written "12"); the README and the guides say the sandbox's answers are tested (not validated as
// they leave: Prism runs with validateResponse: false and the live operations answer unchecked), and the
// test they name exists and validates every answer it receives.
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminOperations } from '../../generated/operations/admin.js';
import { storefrontOperations } from '../../generated/operations/storefront.js';
import { documents, repoRoot } from '../../scripts/lib/repo.js';
import { operationFacts, operationsSummary, references } from '../../scripts/docs/pages.js';

describe('issue 37 item 23: statements about the contract are derived from it or held by a test', () => {
  it.each([
    ['storefront', storefrontOperations],
    ['admin', adminOperations],
  ] as const)('item 23: the %s reference summary counts the operations and tags the generated table has', (api, table) => {
    const ops = Object.values(table) as Array<{ tags: readonly string[] }>;
    const summary = references.find((r) => r.id === api)!.summary;
    expect(summary).toContain(`The ${ops.length} ${api} operations`);
    for (const tag of new Set(ops.flatMap((o) => o.tags))) {
      expect(summary).toContain(`${tag} ${ops.filter((o) => o.tags.includes(tag)).length}`);
    }
    expect(operationFacts(documents[api]).count).toBe(ops.length);
  });

  it('item 23: a document with one more operation, one of them designed, gets another summary', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-facts-'));
    try {
      await mkdir(path.join(dir, 'paths'));
      await writeFile(path.join(dir, 'paths/a.yaml'), 'get:\n  tags: [One]\n  x-contract-source: inferred\npost:\n  tags: [Two]\n');
      await writeFile(path.join(dir, 'doc.yaml'), "openapi: 3.1.0\ntags:\n  - name: Two\n  - name: One\npaths:\n  /a:\n    $ref: paths/a.yaml\n  /b:\n    get:\n      tags: [One]\n");
      expect(operationsSummary('test', operationFacts(path.join(dir, 'doc.yaml')))).toBe('The 3 test operations (2 stated by the platform, 1 designed here), by tag: Two 1, One 2.');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('item 23: the README and the guides claim no run-time validation of answers, and the test they name validates every answer', async () => {
    const texts = await Promise.all(['README.md', 'docs/guides/quickstart.md', 'docs/guides/sandbox.md'].map((f) => readFile(path.join(repoRoot, f), 'utf8')));
    for (const text of texts) {
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).not.toMatch(/every (sandbox )?answer (the sandbox gives )?validates/i);
      expect(flat).toMatch(/answers are (not validated as they leave|tested to validate)/);
    }
    const readme = texts[0]!.replace(/\s+/g, ' ');
    const cited = /validates each answer against the spec \(`([^`]+)`\)/.exec(readme);
    expect(cited).not.toBeNull();
    const walk = await readFile(path.join(repoRoot, cited![1]!), 'utf8');
    // Each answer of the walk goes through validateResponse, and a failed verdict fails the test.
    expect(walk).toMatch(/const verdict = validateResponse\('storefront', operationId, r\.status, r\.json\);\s*if \(!verdict\.valid\) throw/);
    // And the Prism engine indeed does not validate what it answers (so the wording above is the true one).
    expect(await readFile(path.join(repoRoot, 'workbench/mock/prism-engine.ts'), 'utf8')).toContain('validateResponse: false');
  });
});
