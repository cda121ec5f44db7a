// `npm run test:install`: the install tests of test/setup/test-sets.ts with the suite's own settings
// (vitest.config.ts), which leaves them out of `npm test`.
import { configDefaults, type UserConfig } from 'vitest/config';
import base from './vitest.config.js';
import { INSTALL_TESTS } from './test/setup/test-sets.js';

const config: UserConfig = { ...base, test: { ...base.test, include: INSTALL_TESTS, exclude: [...configDefaults.exclude] } };
export default config;
