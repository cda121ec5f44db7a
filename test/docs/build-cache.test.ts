// The docs build cache (scripts/docs/build-cache.ts) in a throwaway git repository: one build per
// working-tree content, concurrent builders wait for the first, any change (tracked, staged or untracked)
// rebuilds, a dead builder's lock is taken over, and old entries are pruned.
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheRoot, forgetSiteKey, isSiteCurrent, withSiteCache, workingTreeKey } from '../../scripts/docs/build-cache.js';

let repo: string;
let builds: number;
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });

beforeEach(async () => {
  repo = await mkdtemp(path.join(os.tmpdir(), 'sfc-docs-cache-'));
  git('init', '-q');
  git('config', 'user.email', 't@example.invalid');
  git('config', 'user.name', 't');
  await writeFile(path.join(repo, '.gitignore'), 'node_modules/\nsite*\n');
  await writeFile(path.join(repo, 'spec.yaml'), 'a: 1\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  builds = 0;
});
afterEach(() => rm(repo, { recursive: true, force: true }));

/** A build that takes a while and writes the content it saw, so a copy can be told from a build. */
async function site(out: string, lines: string[] = []): Promise<string> {
  const how = await withSiteCache(
    repo,
    path.join(repo, out),
    async () => {
      builds += 1;
      await new Promise((r) => setTimeout(r, 150));
      await mkdir(path.join(repo, out, 'assets'), { recursive: true });
      await writeFile(path.join(repo, out, 'index.html'), await readFile(path.join(repo, 'spec.yaml'), 'utf8'));
      await writeFile(path.join(repo, out, 'assets/x.js'), `build ${builds}`);
    },
    (line) => lines.push(line),
  );
  return how;
}

describe('the docs build cache', () => {
  it('builds once per working tree; the second site is a byte copy, logged as such', async () => {
    const lines: string[] = [];
    expect(await site('site-a')).toBe('built');
    expect(await site('site-b', lines)).toBe('cached');
    expect(builds).toBe(1);
    expect(await readFile(path.join(repo, 'site-b/assets/x.js'), 'utf8')).toBe('build 1');
    expect(await readdir(path.join(repo, 'site-b'))).not.toContain('.complete');
    // Times travel with the copy: /docs serves a precompressed copy only when it is not older than its file.
    const [copied, built] = await Promise.all(['site-b', 'site-a'].map(async (d) => (await stat(path.join(repo, d, 'assets/x.js'))).mtimeMs));
    expect(Math.abs(copied - built)).toBeLessThanOrEqual(1); // utimes keeps the time to about a millisecond
    expect(lines.join('\n')).toMatch(/copied from the build cache/);
  });

  it('lets concurrent builders of one tree wait for the first', async () => {
    const hows = await Promise.all([site('site-a'), site('site-b'), site('site-c')]);
    expect(builds).toBe(1);
    expect(hows.sort()).toEqual(['built', 'cached', 'cached']);
    for (const out of ['site-a', 'site-b', 'site-c']) expect(await readFile(path.join(repo, out, 'index.html'), 'utf8')).toBe('a: 1\n');
  });

  it.each([
    ['an unstaged edit', async () => writeFile(path.join(repo, 'spec.yaml'), 'a: 2\n')],
    ['a staged edit', async () => { await writeFile(path.join(repo, 'spec.yaml'), 'a: 3\n'); git('add', 'spec.yaml'); }],
    ['a new untracked file', async () => writeFile(path.join(repo, 'guide.md'), '# new\n')],
    ['a commit', async () => { git('commit', '-q', '--allow-empty', '-m', 'second'); }],
  ])('rebuilds after %s, and not after an ignored file changes', async (_name, change) => {
    await site('site-a');
    await writeFile(path.join(repo, 'site-ignored.txt'), 'ignored');
    expect(await site('site-b')).toBe('cached');
    await change();
    expect(await site('site-c')).toBe('built');
    expect(builds).toBe(2);
  });

  it('takes over the lock of a builder that died', async () => {
    const key = (await workingTreeKey(repo))!;
    const lock = path.join(cacheRoot(repo), `${key}.lock`);
    await mkdir(lock, { recursive: true });
    await writeFile(path.join(lock, 'pid'), '999999999');
    expect(await site('site-a')).toBe('built');
  });

  it('keeps the newest three entries', async () => {
    for (let i = 0; i < 5; i++) {
      await writeFile(path.join(repo, 'spec.yaml'), `a: ${i + 10}\n`);
      await site(`site-${i}`);
    }
    expect((await readdir(cacheRoot(repo))).filter((n) => /^[0-9a-f]{32}$/.test(n))).toHaveLength(3);
  });

  it('builds without a cache outside a git work tree', async () => {
    await rm(path.join(repo, '.git'), { recursive: true, force: true });
    expect(await site('site-a')).toBe('uncached');
    expect(await site('site-b')).toBe('uncached');
    expect(builds).toBe(2);
  });
});

// What test/docs/site-build.ts asks before the browser test reuses docs/site/: the build's own definition
// of its inputs (the whole working tree), not a list of folders that can miss one.
describe('issue 38: whether a site folder holds the current tree\'s site', () => {
  it('issue 38: current once built or copied; stale after any change (a file no list names), after a build for another tree, when forgotten, without its index', async () => {
    const a = path.join(repo, 'site-a');
    expect(await isSiteCurrent(repo, a)).toBe(false); // never built
    expect(await site('site-a')).toBe('built');
    expect(await isSiteCurrent(repo, a)).toBe(true);
    // An input no fixed list named (a lockfile, a workbench module the changelog page reads): stale.
    await writeFile(path.join(repo, 'package-lock.json'), '{}\n');
    expect(await isSiteCurrent(repo, a)).toBe(false);
    expect(await site('site-a')).toBe('built');
    expect(await isSiteCurrent(repo, a)).toBe(true);
    // Back to the first tree: site-a now holds the second tree's site, so it is stale, though its files are newer.
    await rm(path.join(repo, 'package-lock.json'));
    expect(await isSiteCurrent(repo, a)).toBe(false);
    expect(await site('site-b')).toBe('cached');
    expect(await isSiteCurrent(repo, path.join(repo, 'site-b'))).toBe(true);
    await rm(path.join(repo, 'site-b/index.html'));
    expect(await isSiteCurrent(repo, path.join(repo, 'site-b'))).toBe(false);
    expect(await site('site-a')).toBe('cached');
    await forgetSiteKey(repo, a);
    expect(await isSiteCurrent(repo, a)).toBe(false);
  });

  it('issue 38: is never current outside a git work tree (nothing to compare with)', async () => {
    await site('site-a');
    await rm(path.join(repo, '.git'), { recursive: true, force: true });
    expect(await isSiteCurrent(repo, path.join(repo, 'site-a'))).toBe(false);
  });
});
