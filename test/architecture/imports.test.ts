// The import rules of .dependency-cruiser.cjs hold on the whole tree, and the rules really fire: a
// throwaway tree with a cycle, a run-time import of scripts/ and an upward import fails each by name.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/contract/spec-files.js';

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
    const violations = await cruise(repoRoot, ['src', 'generated', 'workbench', 'conformance', 'examples', 'scripts', 'bench', 'test']);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['no-circular', { 'src/a.ts': "import './b.js';\nexport const a = 1;\n", 'src/b.ts': "import './a.js';\nexport const b = 1;\n" }],
    ['no-runtime-import-of-scripts', { 'workbench/w.ts': "import '../scripts/s.js';\n", 'scripts/s.ts': 'export {};\n' }],
    ['library-imports-no-tool', { 'src/l.ts': "import '../workbench/w.js';\n", 'workbench/w.ts': 'export {};\n' }],
    ['workbench-below-certification', { 'workbench/w.ts': "import '../conformance/c.js';\n", 'conformance/c.ts': 'export {};\n' }],
    ['contract-is-a-leaf', { 'src/contract/k.ts': "import '../client/c.js';\n", 'src/client/c.ts': 'export {};\n' }],
  ])('%s fires on a tree that breaks it', async (rule, files) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-imports-'));
    dirs.push(dir);
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    const folders = [...new Set(Object.keys(files).map((f) => f.split('/')[0]))];
    const violations = await cruise(dir, folders);
    expect(violations.map((v) => v.rule.name)).toContain(rule);
  });
});
