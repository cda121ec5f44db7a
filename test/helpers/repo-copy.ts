// A throwaway copy of the parts of this repository the spec scripts need, so tests can edit the
// spec or generated/ without touching the working tree. node_modules is linked, not copied.
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/repo.js';

const PARTS = ['spec', 'generated', 'scripts', 'src/contract', 'workbench/contract', 'packages', 'lint', 'redocly.yaml', 'package.json', 'tsconfig.json'];

export interface RepoCopy {
  dir: string;
  remove(): Promise<void>;
}

export async function copyRepo(parts: string[] = PARTS): Promise<RepoCopy> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-repo-'));
  // Build outputs are left out: a concurrent test's `npm run build` may be rewriting them (packages/*/dist).
  const built = /[\\/]packages[\\/][^\\/]+[\\/](dist|node_modules)([\\/]|$)/;
  for (const part of parts) await cp(path.join(repoRoot, part), path.join(dir, part), { recursive: true, filter: (src) => !built.test(src) });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
