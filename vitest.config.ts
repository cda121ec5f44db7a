import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
      name: `${manifest.name}${subpath.slice(1)}`,
      find: new RegExp(`^${manifest.name}${subpath.slice(1)}$`.replace(/[.-]/g, '\\$&').replace(/^\^/, '^')),
      replacement: realpathSync(path.join(dir, conditions['sfc-source'])),
    }));
});
// Longest name first, so `storefront-contract/webhooks/node` is not taken by `storefront-contract/webhooks`
// nor `storefront-contract-tools` by `storefront-contract`.
alias.sort((a, b) => b.name.length - a.name.length);

export default defineConfig({
  resolve: { alias: alias.map(({ find, replacement }) => ({ find, replacement })) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests start real servers and CLIs and spend much of their time waiting on them (sockets, child
    // processes, retry timers), so four workers keep two cores busy (three left them 15% idle);
    // timing tests tolerate the load.
    maxWorkers: 4,
    minWorkers: 1,
  },
});
