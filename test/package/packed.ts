// The two packages as users get them: `npm run build` stages them in dist/packages/, `npm pack` packs
// each, and the tarballs are installed with --ignore-scripts (as npm does once install scripts are
// blocked) into empty projects: an app project with the library alone (what a front-end app installs)
// and a tools project with both (what a partner's CI or a front-end repo's dev setup installs). Packed
// once per test process; each test file gets the same projects.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';
import { LIBRARY, TOOLS } from '../helpers/manifests.js';

export interface InstalledPackages {
  /** A project with both packages installed; `node_modules/.bin/storefront-contract` is the bin. */
  project: string;
  /** node_modules/.bin/storefront-contract of the tools project. */
  bin: string;
  /** A project with only the library installed, as an app installs it. */
  appProject: string;
  tarballs: { library: string; tools: string };
  remove(): Promise<void>;
}

let installing: Promise<InstalledPackages> | undefined;

async function emptyProject(dir: string, name: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  return dir;
}

async function npmInstall(project: string, specs: string[]): Promise<void> {
  const installed = await run('npm', ['install', ...specs, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], { cwd: project, timeoutMs: 300_000 });
  if (installed.code !== 0) throw new Error(`npm install ${specs.join(' ')} failed in ${project}:\n${installed.output}`);
}

/**
 * What the tools project installs beside the two packages: Node's types, and the optional peers of
 * `storefront-contract/react-query` (pinned as in the root manifest) whose published types the consumer
 * compile checks.
 */
const EXTRA_PACKAGES = ['@types/node@20.19.8', '@tanstack/react-query@5.108.0', 'openapi-react-query@0.5.4', 'react@18.3.1', '@types/react@18.3.31'];

export function installPacked(extraPackages: string[] = EXTRA_PACKAGES): Promise<InstalledPackages> {
  installing ??= (async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'sfc-pack-'));
    const built = await run('npm', ['run', 'build', '--silent'], { cwd: repoRoot, timeoutMs: 240_000 });
    if (built.code !== 0) throw new Error(`npm run build failed:\n${built.output}`);
    const packed = await run('npm', ['pack', `dist/packages/${LIBRARY}`, `dist/packages/${TOOLS}`, '--pack-destination', work, '--silent'], { cwd: repoRoot, timeoutMs: 240_000 });
    if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
    const files = await readdir(work);
    const tarball = (name: string) => path.join(work, files.find((f) => new RegExp(`^${name}-\\d+\\.\\d+\\.\\d+\\.tgz$`).test(f))!);
    const tarballs = { library: tarball(LIBRARY), tools: tarball(TOOLS) };
    const appProject = await emptyProject(path.join(work, 'app'), 'app');
    const project = await emptyProject(path.join(work, 'consumer'), 'consumer');
    // One after the other: two installs at once share npm's cache lock and gain nothing on two cores.
    await npmInstall(appProject, [tarballs.library]);
    await npmInstall(project, [tarballs.library, tarballs.tools, ...extraPackages]);
    return { project, appProject, tarballs, bin: path.join(project, 'node_modules/.bin/storefront-contract'), remove: () => rm(work, { recursive: true, force: true }) };
  })();
  return installing;
}
