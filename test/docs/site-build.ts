// Gives the browser test a built docs/site/: reuses it only when it is the site of the working tree as it
// is now, by the build's own definition of its inputs (scripts/docs/build-cache.ts: the content of every
// tracked and untracked, not ignored file), otherwise runs `npm run docs` once (a copy from the build
// cache when that tree was built before). Tests that only read the site's files take siteToRead instead.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { forgetSiteKey, isSiteCurrent } from '../../scripts/docs/build-cache.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { siteDir } from '../../scripts/docs/pages.js';
import { run } from '../helpers/run.js';
import { hangGuard } from '../helpers/hang-guard.js';

export async function ensureSiteBuilt(): Promise<{ rebuilt: boolean; seconds: number }> {
  const started = Date.now();
  if (await isSiteCurrent(repoRoot, siteDir)) return { rebuilt: false, seconds: 0 };
  const result = await run(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'scripts/docs.ts'], { cwd: repoRoot, timeoutMs: hangGuard(420_000) });
  if (result.code !== 0) throw new Error(`npm run docs failed (exit ${result.code}):\n${result.output}`);
  return { rebuilt: true, seconds: (Date.now() - started) / 1000 };
}

/**
 * A built site of the working tree to read files from, for tests that only read it: docs/site/ when it is
 * current, else a site of its own in a temporary folder (a copy from the build cache when the tree was
 * built before, as it is when the browser test built it; otherwise a build, which the browser test then
 * copies). Never docs/site/ while stale: the browser test may be rebuilding it at that moment.
 */
export async function siteToRead(): Promise<{ dir: string; remove(): Promise<void> }> {
  if (await isSiteCurrent(repoRoot, siteDir)) return { dir: siteDir, remove: async () => {} };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sfc-site-'));
  const result = await run(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'scripts/docs.ts', '--out', dir], { cwd: repoRoot, timeoutMs: hangGuard(420_000) });
  if (result.code !== 0) throw new Error(`npm run docs -- --out ${dir} failed (exit ${result.code}):\n${result.output}`);
  return {
    dir,
    remove: async () => {
      await rm(dir, { recursive: true, force: true });
      await forgetSiteKey(repoRoot, dir);
    },
  };
}

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH when set, else the binary shipped inside the
 * @sparticuz/chromium dev dependency (unpacked once to the temp folder; nothing is downloaded), so
 * `npm ci && npm test` needs no system package.
 */
export async function chromiumPath(): Promise<string> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}
