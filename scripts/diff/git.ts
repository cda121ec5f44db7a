// The spec as it was at a git ref, written to a temporary folder. The documents are split over many
// files with relative $refs, so the whole spec/ folder is extracted, not just the root files.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../lib/repo.js';

const exec = promisify(execFile);

export interface Snapshot {
  dir: string;
  /** Where a repository path (`spec/openapi/storefront.yaml`) is in the snapshot. */
  file(repoPath: string): string;
  remove(): Promise<void>;
}

/** The commit a ref names in the repository at `repo` (this one by default), or undefined. */
export async function commitOf(ref: string, repo = repoRoot): Promise<string | undefined> {
  if (ref.startsWith('-')) return undefined; // never an option to git
  try {
    const { stdout } = await exec('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: repo });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function resolveRef(ref: string, repo = repoRoot): Promise<string> {
  const commit = await commitOf(ref, repo);
  if (commit) return commit;
  throw new Error(`git ref "${ref}" not found. In CI fetch the base branch (actions/checkout with fetch-depth: 0), or pass an existing ref: --base origin/main`);
}

/** The spec folder as it was at a ref (a commit id of `repo`, when given one that resolves). */
export async function snapshotSpec(ref: string, folder = 'spec', repo = repoRoot): Promise<Snapshot> {
  const commit = await resolveRef(ref, repo);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-base-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const { stdout } = await exec('git', ['ls-tree', '-r', '--name-only', commit, '--', folder], { cwd: repo, maxBuffer: 64 * 1024 * 1024 });
    if (stdout.trim()) {
      // git archive | tar -x: one process pair for the whole folder, byte-exact.
      await exec('sh', ['-c', `git archive --format=tar "$0" -- "$1" | tar -x -C "$2"`, commit, folder, dir], { cwd: repo, maxBuffer: 64 * 1024 * 1024 });
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, file: (repoPath) => path.join(dir, repoPath), remove };
}
