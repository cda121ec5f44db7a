// A cache of built docs sites, keyed by the content of the whole working tree: the site is rebuilt when
// anything git sees changes (a spec file, a guide, a script, the lockfile and so the tools' versions), and
// copied from the cache otherwise. The key covers every tracked and untracked, not ignored file rather
// than a list of the build's inputs, which would silently miss a new one: a stale site is never served,
// at the price of rebuilding after unrelated edits. `npm run build`, `npm run docs` and the spec gate
// build the same site; in one test run (or one CI job) the first builds and the others copy.
//
// Concurrent builds of the same key wait for the first (a lock folder holding the builder's pid; a dead
// builder's lock is taken over), so two processes never build the same site at once. Entries live in
// docs/<key>/ of the tools' cache folder, node_modules/.cache/storefront-contract (named once, in
// workbench/contract/cache-dir.ts: the usual home of tool caches, removed by a clean install); the newest
// few are kept. Outside a git work tree there is no key and the site is built.
//
// Each output folder's key (the tree it was built or copied from) is kept beside the cache, outside the
// site (which is published), so a reader of docs/site/ can tell whether it is the current tree's site
// (`isSiteCurrent`) by the same definition of the inputs the build uses: the whole working tree.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { toolsCacheDir } from '../../workbench/contract/cache-dir.js';

const exec = promisify(execFile);
/** Entries kept: enough for a branch switch and back, bounded on disk (a site is about 10 MB). */
const KEEP = 3;
const LOCK_WAIT_MS = 10 * 60_000;

export function cacheRoot(repoRoot: string): string {
  return path.join(toolsCacheDir(path.join(repoRoot, 'node_modules')), 'docs');
}

async function git(repoRoot: string, args: string[]): Promise<string> {
  const { stdout } = await exec('git', args, { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  return stdout;
}

/** Where the key of the tree `outDir` was last built or copied from is kept. */
function stampFile(repoRoot: string, outDir: string): string {
  return path.join(cacheRoot(repoRoot), 'sites', createHash('sha256').update(path.resolve(outDir)).digest('hex').slice(0, 32));
}

/** Forgets which tree `outDir` holds (before it is rebuilt, or built outside the cache). */
export async function forgetSiteKey(repoRoot: string, outDir: string): Promise<void> {
  await rm(stampFile(repoRoot, outDir), { force: true });
}

async function recordSiteKey(repoRoot: string, outDir: string, key: string): Promise<void> {
  await mkdir(path.dirname(stampFile(repoRoot, outDir)), { recursive: true });
  await writeFile(stampFile(repoRoot, outDir), key);
}

/**
 * True when `outDir` holds the site of the working tree as it is now: built or copied by `withSiteCache`
 * from a tree with the current key (any change to a tracked or untracked, not ignored file makes it stale),
 * and its index page is there. False outside git (no key: it cannot be told).
 */
export async function isSiteCurrent(repoRoot: string, outDir: string): Promise<boolean> {
  const [key, stamped, index] = await Promise.all([workingTreeKey(repoRoot), readFile(stampFile(repoRoot, outDir), 'utf8').catch(() => undefined), exists(path.join(outDir, 'index.html'))]);
  return key !== undefined && stamped === key && index;
}

/** The working tree's content as one hash (HEAD, uncommitted changes, untracked files), or undefined outside git. */
export async function workingTreeKey(repoRoot: string): Promise<string | undefined> {
  try {
    const hash = createHash('sha256');
    hash.update(await git(repoRoot, ['rev-parse', 'HEAD']));
    hash.update(await git(repoRoot, ['diff', 'HEAD', '--binary', '--no-ext-diff', '--no-color']));
    const untracked = (await git(repoRoot, ['ls-files', '--others', '--exclude-standard', '-z'])).split('\0').filter(Boolean).sort();
    for (const file of untracked) {
      hash.update(`\0${file}\0`);
      hash.update(await readFile(path.join(repoRoot, file)).catch(() => Buffer.from('(unreadable)')));
    }
    return hash.digest('hex').slice(0, 32);
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the key's lock, waiting while a live process holds it; false when the entry appeared meanwhile. */
async function lock(dir: string, done: string): Promise<boolean> {
  const started = Date.now();
  for (;;) {
    if (await exists(done)) return false;
    try {
      await mkdir(dir);
      await writeFile(path.join(dir, 'pid'), String(process.pid));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = Number(await readFile(path.join(dir, 'pid'), 'utf8').catch(() => ''));
    // A lock whose builder died (or one being written this instant, given a second) is taken over.
    if ((holder && !alive(holder)) || (!holder && Date.now() - (await stat(dir).then((s) => s.mtimeMs, () => 0)) > 1000)) {
      await rm(dir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) throw new Error(`another build (pid ${holder}) has held ${dir} for ${LOCK_WAIT_MS / 60_000} minutes; remove the folder if no build runs`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const exists = (p: string) => stat(p).then(() => true, () => false);

/**
 * Gives `outDir` the site of the current working tree: copied from the cache when it holds this tree's
 * build, else built by `build` (into `outDir`) and stored. Returns how it came.
 */
export async function withSiteCache(repoRoot: string, outDir: string, build: () => Promise<void>, log: (line: string) => void): Promise<'built' | 'cached' | 'uncached'> {
  const key = await workingTreeKey(repoRoot);
  if (!key) {
    await build();
    return 'uncached';
  }
  const root = cacheRoot(repoRoot);
  const entry = path.join(root, key);
  // Until the site is whole again, outDir is not known to hold any tree's site.
  await forgetSiteKey(repoRoot, outDir);
  const done = path.join(entry, '.complete');
  await mkdir(root, { recursive: true });
  const mine = await lock(`${entry}.lock`, done);
  try {
    if (!mine || (await exists(done))) {
      await rm(outDir, { recursive: true, force: true });
      await cp(entry, outDir, { recursive: true, preserveTimestamps: true, filter: (f) => f !== done });
      log(`site copied from the build cache (${path.relative(repoRoot, entry)}: the working tree is unchanged since it was built)`);
      await recordSiteKey(repoRoot, outDir, key);
      return 'cached';
    }
    await build();
    // Stored under a temporary name and renamed, so a reader never sees half an entry.
    const partial = `${entry}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await cp(outDir, partial, { recursive: true, preserveTimestamps: true });
    await writeFile(path.join(partial, '.complete'), new Date().toISOString());
    await rm(entry, { recursive: true, force: true });
    await rename(partial, entry);
    await prune(root, key);
    await recordSiteKey(repoRoot, outDir, key);
    return 'built';
  } finally {
    if (mine) await rm(`${entry}.lock`, { recursive: true, force: true });
  }
}

/** Keeps the newest KEEP complete entries (and the current one). */
async function prune(root: string, current: string): Promise<void> {
  const entries = await Promise.all(
    (await readdir(root)).filter((n) => /^[0-9a-f]{32}$/.test(n)).map(async (n) => ({ n, t: await stat(path.join(root, n, '.complete')).then((s) => s.mtimeMs, () => 0) })),
  );
  const old = entries.filter((e) => e.n !== current).sort((a, b) => b.t - a.t).slice(KEEP - 1);
  await Promise.all(old.map((e) => rm(path.join(root, e.n), { recursive: true, force: true })));
}
