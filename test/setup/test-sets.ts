// The two sets of test files. `npm test` runs the tests of the code; `npm run test:install` runs the tests of
// installs, as users install: the packed tarballs in fresh projects (test/package), the published Actions'
// install from a registry (test/actions/published-install.test.ts) and a fresh clone with nothing built
// (test/clone). Those build, pack and `npm install` for minutes of CPU, so they run as their own command,
// after `npm test` in .ci/run and under every supported Node version (`npm run test:node-versions`).
export const INSTALL_TESTS = ['test/package/**/*.test.ts', 'test/clone/**/*.test.ts', 'test/actions/published-install.test.ts'];
