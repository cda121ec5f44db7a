// The package as a user gets it: `npm pack` (which builds dist/ through prepack), then the tarball
// installed with --ignore-scripts into an empty project, as npm does once install scripts are blocked.
// Packed once per test process; each test file gets the same project.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../src/contract/spec-files.js';
import { run } from '../helpers/run.js';

export interface InstalledPackage {
  /** The consumer project; `node_modules/storefront-contract` is the installed package. */
  project: string;
  /** node_modules/.bin/storefront-contract of the project. */
  bin: string;
  remove(): Promise<void>;
}

let installing: Promise<InstalledPackage> | undefined;

export function installPacked(extraPackages: string[] = ['@types/node@20.19.8']): Promise<InstalledPackage> {
  installing ??= (async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'sfc-pack-'));
    const project = path.join(work, 'consumer');
    const packed = await run('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: repoRoot, timeoutMs: 240_000 });
    if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
    const tarball = path.join(work, (await readdir(work)).find((f) => f.endsWith('.tgz'))!);
    await mkdir(project, { recursive: true });
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const installed = await run('npm', ['install', tarball, ...extraPackages, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], {
      cwd: project,
      timeoutMs: 300_000,
    });
    if (installed.code !== 0) throw new Error(`npm install of the tarball failed:\n${installed.output}`);
    return { project, bin: path.join(project, 'node_modules/.bin/storefront-contract'), remove: () => rm(work, { recursive: true, force: true }) };
  })();
  return installing;
}
