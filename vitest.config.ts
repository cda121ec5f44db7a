import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests start real servers and CLIs; two cores on CI, so keep parallelism modest.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
