// One side of a changelog (`<old>` or `<new>`), resolved to a folder holding the contract's documents:
//   a folder        that holds spec/ (a checkout, an unpacked storefront-contract-tools package), or is spec/
//   working         the working tree of the repository (the same as its root folder)
//   a release       0.2.0 or v0.2.0: listed in spec/versions.yaml, or a git tag contract-v0.2.0
//   a git ref       a commit, branch or tag (HEAD~3, origin/main)
// Refs and releases are read from git (the spec folder of that commit, extracted to a temporary folder),
// never from the network. Every failure is one sentence naming the side, the problem and the fix.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { documents, specDir as repoSpecDir } from '../lib/repo.js';
import { commitOf, snapshotSpec } from '../diff/git.js';
import { findRelease, VERSIONS_FILE, type Release } from './versions.js';

const exec = promisify(execFile);

/** The three documents, relative to a spec folder: openapi/storefront.yaml, openapi/admin.yaml, asyncapi/webhooks.yaml. */
export const DOCUMENT_PATHS = Object.fromEntries(Object.entries(documents).map(([name, file]) => [name, path.relative(repoSpecDir, file)])) as Record<
  keyof typeof documents,
  string
>;

export interface Side {
  /** What was asked for on the command line. */
  asked: string;
  kind: 'release' | 'ref' | 'folder';
  /** How the changelog names it: `0.2.0`, `HEAD~2`, `folder old-checkout/`. */
  label: string;
  /** The release's version, when the side is a release or its commit is one. */
  version?: string;
  commit?: string;
  /** Day of the commit (YYYY-MM-DD). */
  date?: string;
  /** The folder holding openapi/ and asyncapi/. */
  specDir: string;
  remove(): Promise<void>;
}

export class SideError extends Error {}

export interface Repository {
  /** The git work tree's root, when the current folder is inside one. */
  root?: string;
  shallow: boolean;
  releases: Release[];
}

/** The git repository around `cwd` (its root and whether the clone is shallow). */
export async function findRepository(cwd: string): Promise<{ root?: string; shallow: boolean }> {
  try {
    const { stdout } = await exec('git', ['rev-parse', '--show-toplevel', '--is-shallow-repository'], { cwd });
    const [root, shallow] = stdout.trim().split('\n');
    return { root, shallow: shallow === 'true' };
  } catch {
    return { shallow: false };
  }
}

const hasDocument = (dir: string) => Object.values(DOCUMENT_PATHS).some((p) => existsSync(path.join(dir, p)));

/** The spec folder inside a folder given on the command line, or undefined. */
function specFolderOf(dir: string): string | undefined {
  if (hasDocument(path.join(dir, 'spec'))) return path.join(dir, 'spec');
  if (hasDocument(dir)) return dir;
  return undefined;
}

async function dayOf(commit: string, repo: string): Promise<string | undefined> {
  try {
    const { stdout } = await exec('git', ['show', '-s', '--format=%cs', commit], { cwd: repo });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

function missingCommit(what: string, commit: string, repo: Repository): SideError {
  const how = repo.shallow
    ? 'this clone is shallow: git fetch --unshallow (in GitHub Actions, actions/checkout with fetch-depth: 0)'
    : 'fetch it (git fetch origin), or fix the commit id';
  return new SideError(`${what} is commit ${commit.slice(0, 12)}, which this clone does not have; ${how}`);
}

export async function resolveSide(asked: string, cwd: string, repo: Repository): Promise<Side> {
  const keep = async () => undefined;
  // A folder.
  const dir = asked === 'working' ? (repo.root ?? cwd) : path.resolve(cwd, asked);
  if (asked === 'working' || (existsSync(dir) && statSync(dir).isDirectory())) {
    const spec = specFolderOf(dir);
    if (!spec) {
      throw new SideError(
        `${asked}: the folder holds none of the contract's documents (spec/${Object.values(DOCUMENT_PATHS).join(', spec/')}); give a folder holding spec/ (a checkout, an unpacked storefront-contract-tools package) or the spec folder itself`,
      );
    }
    const shown = asked === 'working' ? 'the working tree' : `folder ${path.relative(cwd, dir) || '.'}`;
    return { asked, kind: 'folder', label: shown, specDir: spec, remove: keep };
  }
  if (!repo.root) {
    throw new SideError(`${asked}: no such folder, and ${cwd} is not inside a git repository where it could be a release or a ref; give a folder holding spec/, or run in a clone of the contract repository`);
  }
  // A release (spec/versions.yaml, then a contract-v<version> tag), else any git ref.
  const release = findRelease(repo.releases, asked);
  let commit: string | undefined;
  let version: string | undefined;
  let kind: Side['kind'] = 'ref';
  if (release) {
    commit = await commitOf(release.commit, repo.root);
    if (!commit) throw missingCommit(`release ${release.version} (${VERSIONS_FILE})`, release.commit, repo);
    version = release.version;
    kind = 'release';
  } else {
    const tag = /^v?\d+\.\d+\.\d+/.test(asked) ? await commitOf(`refs/tags/contract-v${asked.replace(/^v/, '')}`, repo.root) : undefined;
    commit = tag ?? (await commitOf(asked, repo.root));
    if (tag) {
      version = asked.replace(/^v/, '');
      kind = 'release';
    }
    if (!commit) {
      const releases = repo.releases.map((r) => r.version).join(', ') || 'none listed';
      const shallow = repo.shallow ? ' (this clone is shallow: git fetch --unshallow)' : '';
      throw new SideError(`${asked}: not a folder, a release (${VERSIONS_FILE}: ${releases}) or a git ref of this repository${shallow}; give one of those`);
    }
    // A ref that lands on a release's commit is that release.
    version ??= repo.releases.find((r) => r.commit === commit)?.version;
  }
  const snapshot = await snapshotSpec(commit, 'spec', repo.root);
  const spec = path.join(snapshot.dir, 'spec');
  if (!hasDocument(spec)) {
    await snapshot.remove();
    throw new SideError(`${asked}: commit ${commit.slice(0, 12)} has none of the contract's documents under spec/; give a later commit`);
  }
  const label = kind === 'release' ? version! : version ? `${asked} (release ${version})` : asked;
  return { asked, kind, label, version, commit, date: await dayOf(commit, repo.root), specDir: spec, remove: snapshot.remove };
}
