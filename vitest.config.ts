import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Examples import the package by its public name (`storefront-contract/webhooks`), as users do. In this
// repository those names resolve to the sources through the `sfc-source` export condition, which node
// gets from `--conditions=sfc-source` and vitest from these aliases.
const manifest = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  name: string;
  exports: Record<string, string | Record<string, string>>;
};
const alias = Object.entries(manifest.exports)
  .filter((entry): entry is [string, Record<string, string>] => typeof entry[1] === 'object' && 'sfc-source' in entry[1])
  // Longest subpath first, so `storefront-contract/webhooks/node` is not taken by `storefront-contract/webhooks`.
  .sort(([a], [b]) => b.length - a.length)
  .map(([subpath, conditions]) => ({
    find: new RegExp(`^${manifest.name}${subpath.slice(1).replace(/[/.]/g, '\\$&')}$`),
    replacement: fileURLToPath(new URL(conditions['sfc-source'], import.meta.url)),
  }));

export default defineConfig({
  resolve: { alias },
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
