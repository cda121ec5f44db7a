// Gives the browser test a built docs/site/: reuses it only when it is the site of the working tree as it
// is now, by the build's own definition of its inputs (scripts/docs/build-cache.ts: the content of every
// tracked and untracked, not ignored file), otherwise runs `npm run docs` once (a copy from the build
// cache when that tree was built before).
import path from 'node:path';
import { isSiteCurrent } from '../../scripts/docs/build-cache.js';
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
