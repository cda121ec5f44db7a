// `npm run test:adapters` (issue 39): the HTTP-level suites again, through the MSW adapter in Node
// (SFC_TEST_ADAPTER=msw-node, test/helpers/adapter.ts): every test that reaches the workbench through the
// shared helpers (startSandbox, startMock, the simulator's startWorkbench, and their request functions)
// runs against the engine composed without a port, behind the catch-all handler that
// `storefront-contract-tools/msw` ships, and must give the same answers it gets on HTTP. `npm test` runs
// the same files through the node:http adapter; the browser build runs in Chromium in test/msw/.
// Left out below: files whose subject is what only a port has, each with its reason. A new file in these
// folders is in by default, and fails here if it needs a port, so this list cannot miss one silently.
import { configDefaults, type UserConfig } from 'vitest/config';
import base from './vitest.config.js';

const NEEDS_A_PORT: Record<string, string> = {
  'test/mock/front.test.ts': "the node:http adapter's own refusals, written on raw sockets",
  'test/mock/robustness.test.ts': 'hostile traffic written on raw sockets (bad chunking, smuggling)',
  'test/mock/docs-compression.test.ts': '/docs is served by the node:http workbench only (an in-process engine has no docs site)',
  'test/sandbox/back-office-browser.test.ts': 'Chromium loads the back office from the workbench\'s port (the page behind MSW\'s worker: test/msw/chromium.test.ts)',
  'test/sandbox/images-browser.test.ts': 'Chromium loads the images from the workbench\'s port',
  'test/sandbox/certify-sandbox.test.ts': 'certification judges a server at a base URL over HTTP',
  'test/simulator/cli.test.ts': 'the CLI is given the workbench\'s URL',
};

const config: UserConfig = {
  ...base,
  test: {
    ...base.test,
    include: ['test/sandbox/**/*.test.ts', 'test/mock/**/*.test.ts', 'test/simulator/**/*.test.ts', 'test/store/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...Object.keys(NEEDS_A_PORT)],
    env: { ...base.test?.env, SFC_TEST_ADAPTER: 'msw-node' },
  },
};
export default config;
