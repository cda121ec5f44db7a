import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { INSTALL_TESTS } from './test/setup/test-sets.js';
import { hangGuard } from './test/helpers/hang-guard.js';
import WeightedSequencer from './test/setup/sequencer.js';

// Code here imports the two packages by their public names (`storefront-contract/webhooks`,
// `storefront-contract-tools`), as users do. In this repository those names resolve to the sources
// through each package's `sfc-source` export condition, which node gets from `--conditions=sfc-source`
// and vitest from these aliases, derived from every manifest under packages/.
const packagesDir = fileURLToPath(new URL('./packages/', import.meta.url));
const alias = readdirSync(packagesDir).flatMap((folder) => {
  const dir = path.join(packagesDir, folder);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | Record<string, string>>;
  };
  return Object.entries(manifest.exports)
    .filter((entry): entry is [string, Record<string, string>] => typeof entry[1] === 'object' && 'sfc-source' in entry[1])
    .map(([subpath, conditions]) => ({
      // Anchored at both ends, so `storefront-contract` never takes `storefront-contract/webhooks` or `-tools`.
      find: new RegExp(`^${`${manifest.name}${subpath.slice(1)}`.replace(/[.-]/g, '\\$&')}$`),
      replacement: realpathSync(path.join(dir, conditions['sfc-source'])),
    }));
});

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.ts'],
    // The install tests (packed tarballs, a fresh clone) are `npm run test:install` (vitest.install.config.ts).
    exclude: [...configDefaults.exclude, ...INSTALL_TESTS],
    // Child processes (the CLI, scripts, examples started by tests with `--import tsx`) inherit the
    // condition, so they too run the sources of both packages, never a stale build. The staged packages'
    // manifests carry no `sfc-source` condition, so an installed package ignores it.
    env: { NODE_OPTIONS: [process.env.NODE_OPTIONS, '--conditions=sfc-source'].filter(Boolean).join(' ') },
    // Hang guards, stretched under `npm run test:under-load` (test/helpers/hang-guard.ts).
    testTimeout: hangGuard(60_000),
    // After the suite, no process a test started may be left: the run fails naming each (issue 38).
    globalSetup: [fileURLToPath(new URL('./test/setup/leftover-processes.ts', import.meta.url))],
    // `expect.poll` waits on state (a page's row, a delivery's outcome), never on time: a poll that
    // succeeds returns at once, so a generous default only matters on a loaded machine, where vitest's
    // 1 s default failed the console journey under a full parallel run.
    expect: { poll: { timeout: hangGuard(15_000) } },
    hookTimeout: hangGuard(120_000),
    // Tests start real servers and CLIs and spend much of their time waiting on them (sockets, child
    // processes, retry timers), so more workers than cores keep two cores busy. Three, not four: with the
    // heavier files of the fourth round (a fresh clone's commands, installs of the packed tools, hostile
    // CLI runs) four workers starved the timing tests (the webhook sender certifier saw a timeout 1 ms short
    // of its tolerance on a clean clone).
    maxWorkers: 3,
    // Test files share their worker process instead of each starting a new one: a file that imports the
    // workbench cost about 0.8 CPU-s more in a fresh process (Node and vitest start, the dependencies'
    // modules loaded and compiled again), about 150 of the suite's 520 CPU-s. A file gets the modules
    // (and their state) the worker's earlier files left, so a test about process state makes its own
    // fresh copy (vi.resetModules(), as in test/workbench/contract-model.test.ts) or runs a child process.
    isolate: false,
    // As many workers from the start as at most: with fewer, tinypool ends a run whose workers are not
    // isolated with "Terminating worker thread" (vitest-dev/vitest#8564).
    minWorkers: 3,
    // The longest files first, from vitest's cache or, on a clean clone, test/weights.json.
    sequence: { sequencer: WeightedSequencer },
  },
});
