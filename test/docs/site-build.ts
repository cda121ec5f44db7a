// Gives the browser test a built docs/site/: reuses the current build when it is newer than every
// input (spec/, docs/guides/, the docs scripts), otherwise runs `npm run docs` once.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/repo.js';
import { siteDir } from '../../scripts/docs/pages.js';
import { run } from '../helpers/run.js';

// The changelog page also depends on the diff engine and the changelog scripts (and on git history,
// which only grows: a release's commit never changes).
const INPUTS = ['spec', 'docs/guides', 'scripts/docs', 'scripts/docs.ts', 'scripts/changelog', 'scripts/diff', 'generated/webhooks/catalog.ts'];

async function newestMtime(target: string): Promise<number> {
  const info = await stat(target).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(target)) newest = Math.max(newest, await newestMtime(path.join(target, entry)));
  return newest;
}

export async function ensureSiteBuilt(): Promise<{ rebuilt: boolean; seconds: number }> {
  const started = Date.now();
  const built = await stat(path.join(siteDir, 'index.html')).then((s) => s.mtimeMs, () => 0);
  const inputs = Math.max(...(await Promise.all(INPUTS.map((p) => newestMtime(path.join(repoRoot, p))))));
  if (built > inputs) return { rebuilt: false, seconds: 0 };
  const result = await run(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'scripts/docs.ts'], { cwd: repoRoot, timeoutMs: 180_000 });
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
