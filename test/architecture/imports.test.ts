// The import rules of .dependency-cruiser.cjs hold on the whole tree, and the rules really fire: a
// throwaway tree with a cycle, a run-time import of scripts/, an upward import and a rule reading an
// engine's type fails each by name.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { hangGuard } from '../helpers/hang-guard.js';

const run = promisify(execFile);
const depcruise = path.join(repoRoot, 'node_modules/.bin/depcruise');
const config = path.join(repoRoot, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

async function cruise(cwd: string, folders: string[]): Promise<Violation[]> {
  const result = await run(depcruise, [...folders, '--config', config, '--output-type', 'json'], { cwd, maxBuffer: 64 * 1024 * 1024 }).catch(
    (e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }),
  );
  return (JSON.parse(result.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('import rules', () => {
  it('hold on every folder of the repository', async () => {
    const violations = await cruise(repoRoot, ['src', 'generated', 'workbench', 'conformance', 'cli', 'examples', 'scripts', 'bench', 'test']);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  // One throwaway tree breaking every rule at once (one dependency-cruiser run): each rule must fire by name.
  let dir: string;
  let fired: string[];
  let violations: Violation[];
  const BROKEN: Record<string, string> = {
    'src/a.ts': "import './b.js';\nexport const a = 1;\n",
    'src/b.ts': "import './a.js';\nexport const b = 1;\n",
    'workbench/w.ts': "import '../scripts/s.js';\nimport '../conformance/c.js';\nimport '../src/client/c.js';\nexport {};\n",
    'scripts/s.ts': 'export {};\n',
    'conformance/c.ts': 'export {};\n',
    'src/l.ts': "import '../workbench/w.js';\n",
    'src/contract/k.ts': "import '../client/c.js';\n",
    'src/client/c.ts': 'export {};\n',
    'conformance/rules/rest/r.ts': "import type { E } from '../../rest/e.js';\nexport type R = E;\n",
    'conformance/rest/e.ts': 'export type E = string;\n',
    'workbench/mock/h.ts': "import http from 'node:http';\nimport { readFileSync } from 'node:fs';\nexport const h = [http, readFileSync];\n",
    'workbench/adapters/n.ts': "import http from 'node:http';\nexport const n = http;\n",
  };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-imports-'));
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
    for (const [file, text] of Object.entries(BROKEN)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    violations = await cruise(dir, ['src', 'workbench', 'scripts', 'conformance']);
    fired = violations.map((v) => v.rule.name);
  }, hangGuard(60_000));
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(['no-circular', 'no-runtime-import-of-scripts', 'library-imports-no-tool', 'workbench-below-certification', 'contract-is-a-leaf', 'tools-import-the-library-by-name', 'rules-import-no-engine', 'node-http-only-in-adapters', 'request-path-reads-no-files'])(
    '%s fires on a tree that breaks it',
    (rule) => {
      expect(fired).toContain(rule);
    },
  );

  it('issue 39 item 1: node:http is refused outside workbench/adapters/ and allowed inside', () => {
    const http = violations.filter((v) => v.rule.name === 'node-http-only-in-adapters').map((v) => v.from);
    expect(http).toEqual(['workbench/mock/h.ts']);
  });
});
