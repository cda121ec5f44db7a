// The two packages as users get them: `npm run build` stages them in dist/packages/, `npm pack` packs
// each, and the tarballs are installed with --ignore-scripts (as npm does once install scripts are
// blocked) into empty projects: an app project with the library alone (what a front-end app installs)
// and a tools project with both (what a partner's CI or a front-end repo's dev setup installs). Packed
// once per test run (packTarballs: the workers of a run share the tarballs, and build one at a time,
// since the build writes dist/packages/); installed once per test process, each test file of it getting
// the same projects.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { repoRoot } from '../../scripts/lib/repo.js';
import { run } from '../helpers/run.js';
import { LIBRARY, TOOLS } from '../helpers/manifests.js';
import { hangGuard } from '../helpers/hang-guard.js';

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
  const installed = await run('npm', ['install', ...specs, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], { cwd: project, timeoutMs: hangGuard(300_000) });
  if (installed.code !== 0) throw new Error(`npm install ${specs.join(' ')} failed in ${project}:\n${installed.output}`);
}

/**
 * What the tools project installs beside the two packages: Node's types, and the optional peers of
 * `storefront-contract/react-query` (pinned as in the root manifest) whose published types the consumer
 * compile checks.
 */
const EXTRA_PACKAGES = ['@types/node@20.19.8', '@tanstack/react-query@5.108.0', 'openapi-react-query@0.5.4', 'react@18.3.1', '@types/react@18.3.31'];

export interface PackedTarballs {
  library: string;
  tools: string;
}

let packing: Promise<PackedTarballs> | undefined;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Holds `lock` (a directory: mkdir is atomic) while `work` runs; waits while a live process holds it, takes it from a dead one. */
async function exclusively<T>(lock: string, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(path.join(lock, 'pid'), 'utf8').catch(() => ''));
      if (holder && !alive(holder)) await rm(lock, { recursive: true, force: true });
      else await delay(200); // the holder is building: wait for it to let go
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/**
 * The two tarballs, from `npm run build` and `npm pack`, once per test run: every worker process of one
 * vitest run (the same parent) gets the same files; a later run builds again. The folders of runs whose
 * process is gone are removed. SFC_PACKED_TARBALLS=<folder> uses the tarballs already packed there
 * (`npm run build && npm pack dist/packages/* --pack-destination <folder>`) instead, to re-run a test.
 */
export function packTarballs(): Promise<PackedTarballs> {
  const given = process.env.SFC_PACKED_TARBALLS;
  if (given) return (packing ??= readdir(given).then((files) => {
    const tarball = (name: string) => files.find((f) => new RegExp(`^${name}-\\d+\\.\\d+\\.\\d+\\.tgz$`).test(f));
    const [library, tools] = [tarball(LIBRARY), tarball(TOOLS)];
    if (!library || !tools) throw new Error(`SFC_PACKED_TARBALLS=${given} holds no ${LIBRARY}-<version>.tgz and ${TOOLS}-<version>.tgz`);
    return { library: path.join(given, library), tools: path.join(given, tools) };
  }));
  packing ??= (async () => {
    const shared = path.join(os.tmpdir(), `sfc-packed-${createHash('sha256').update(repoRoot).digest('hex').slice(0, 12)}`);
    await mkdir(shared, { recursive: true });
    return exclusively(path.join(shared, 'lock'), async () => {
      const runDir = path.join(shared, `run-${process.ppid}`);
      for (const old of await readdir(shared)) {
        const pid = Number(/^run-(\d+)$/.exec(old)?.[1]);
        if (pid && pid !== process.ppid && !alive(pid)) await rm(path.join(shared, old), { recursive: true, force: true });
      }
      const find = async () => {
        const files = await readdir(runDir).catch(() => [] as string[]);
        const tarball = (name: string) => files.find((f) => new RegExp(`^${name}-\\d+\\.\\d+\\.\\d+\\.tgz$`).test(f));
        const [library, tools] = [tarball(LIBRARY), tarball(TOOLS)];
        return library && tools ? { library: path.join(runDir, library), tools: path.join(runDir, tools) } : undefined;
      };
      const done = await find();
      if (done) return done;
      await rm(runDir, { recursive: true, force: true });
      await mkdir(runDir);
      const built = await run('npm', ['run', 'build', '--silent'], { cwd: repoRoot, timeoutMs: hangGuard(600_000) });
      if (built.code !== 0) throw new Error(`npm run build failed:\n${built.output}`);
      const packed = await run('npm', ['pack', `dist/packages/${LIBRARY}`, `dist/packages/${TOOLS}`, '--pack-destination', runDir, '--silent'], { cwd: repoRoot, timeoutMs: hangGuard(240_000) });
      if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
      return (await find())!;
    });
  })();
  return packing;
}

export function installPacked(extraPackages: string[] = EXTRA_PACKAGES): Promise<InstalledPackages> {
  installing ??= (async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'sfc-pack-'));
    const tarballs = await packTarballs();
    const appProject = await emptyProject(path.join(work, 'app'), 'app');
    const project = await emptyProject(path.join(work, 'consumer'), 'consumer');
    // One after the other: two installs at once share npm's cache lock and gain nothing on two cores.
    await npmInstall(appProject, [tarballs.library]);
    await npmInstall(project, [tarballs.library, tarballs.tools, ...extraPackages]);
    return { project, appProject, tarballs, bin: path.join(project, 'node_modules/.bin/storefront-contract'), remove: () => rm(work, { recursive: true, force: true }) };
  })();
  return installing;
}
