// The vitest configuration StrykerJS runs (scripts/mutation.ts): the suite's own (aliases, environment,
// time-outs, shared workers), with only the test files of the module under test, which the runner passes in
// MUT_TESTS, and vitest's default order. Not the after-suite check for leftover processes: the runner keeps
// one vitest alive for the whole run, beside Stryker's own processes.
import type { UserConfig } from 'vitest/config';
import base from '../../vitest.config.js';

const tests = (process.env.MUT_TESTS ?? '').split(',').filter(Boolean);
if (tests.length === 0) throw new Error('test/mutation/vitest.config.ts: MUT_TESTS names no test file; run it through `npm run test:mutation`');
const config: UserConfig = { ...base, test: { ...base.test, include: tests, sequence: {}, globalSetup: [] } };
export default config;
