// The vitest configuration StrykerJS runs (scripts/mutation.ts): the suite's own (aliases, environment,
// time-outs), with only the test files of the module under test, which the runner passes in
// MUT_TESTS, and vitest's default order. Not the after-suite check for leftover processes: the runner keeps
// one vitest alive for the whole run, beside Stryker's own processes.
import type { UserConfig } from 'vitest/config';
import base from '../../vitest.config.js';

const tests = (process.env.MUT_TESTS ?? '').split(',').filter(Boolean);
if (tests.length === 0) throw new Error('test/mutation/vitest.config.ts: MUT_TESTS names no test file; run it through `npm run test:mutation`');
// isolate: each run evaluates the modules afresh. The suite shares modules between files (isolate: false,
// for speed); here that would keep a module loaded by an earlier run, so a static mutant (module-level code:
// a constant, a regex, a table) would never be switched on and would survive every test that kills it.
const config: UserConfig = { ...base, test: { ...base.test, include: tests, sequence: {}, globalSetup: [], isolate: true } };
export default config;
