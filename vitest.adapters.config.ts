// `npm run test:adapters` (issue 39): the HTTP-level suites again, through the MSW adapter in Node
// (SFC_TEST_ADAPTER=msw-node, test/helpers/adapter.ts): every test file that reaches the workbench through
// the shared helpers (startWorkbench, startSandbox, startMock, the simulator's startWorkbench, and their
// request functions; found by its imports) runs against the engine composed without a port, behind the catch-all handler that
// `storefront-contract-tools/msw` ships, and must give the same answers it gets on HTTP. `npm test` runs
// the same files through the node:http adapter; the browser build runs in Chromium in test/msw/.
// Left out below: files whose subject is what only a port has, each with its reason. A new file that uses
// the helpers is in by default, and fails here if it needs a port, so this list cannot miss one silently.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configDefaults, type UserConfig } from 'vitest/config';
import base from './vitest.config.js';

/** The modules through which a test reaches the workbench by the chosen adapter. */
const ADAPTER_HELPERS = ['test/helpers/adapter.ts', 'test/sandbox/helpers.ts', 'test/mock/helpers.ts', 'test/simulator/helpers.ts'];

/** Every test file that imports one of them (derived, so a new such test is in without a list to extend). */
function throughTheAdapter(): string[] {
  const files = readdirSync('test', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
  return files
    .map((f) => path.join('test', f))
    .filter((file) => {
      const imports = [...readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)].map((m) => path.join(path.dirname(file), `${m[1]}.ts`));
      return imports.some((i) => ADAPTER_HELPERS.includes(i));
    })
    .sort();
}

const NEEDS_A_PORT: Record<string, string> = {
  'test/mock/front.test.ts': "the node:http adapter's own refusals, written on raw sockets",
  'test/mock/robustness.test.ts': 'hostile traffic written on raw sockets (bad chunking, smuggling)',
  'test/mock/docs-compression.test.ts': '/docs is served by the node:http workbench only (an in-process engine has no docs site)',
  'test/sandbox/back-office-browser.test.ts': 'Chromium loads the back office from the workbench\'s port (the page behind MSW\'s worker: test/msw/chromium.test.ts)',
  'test/sandbox/images-browser.test.ts': 'Chromium loads the images from the workbench\'s port',
  'test/sandbox/certify-sandbox.test.ts': 'certification judges a server at a base URL over HTTP',
  'test/simulator/cli.test.ts': 'the CLI is given the workbench\'s URL',
  'test/workbench/raw-socket-refusals.test.ts': "the node:http adapter's refusals of what node's parser rejects, on raw sockets",
  'test/workbench/local-origin.test.ts': 'the local-caller guard judged from the Host header and the peer address, which fetch cannot set',
  'test/actions/certify-action.test.ts': 'the certify Action runs the CLI against a base URL',
  'test/conformance/shards.test.ts': 'sharded certification of a server at a base URL',
  'test/conformance/merge-hostile.test.ts': 'certification shards of a server at a base URL, then merged',
};

const config: UserConfig = {
  ...base,
  test: {
    ...base.test,
    include: throughTheAdapter(),
    exclude: [...(base.test?.exclude ?? configDefaults.exclude), ...Object.keys(NEEDS_A_PORT)],
    env: { ...base.test?.env, SFC_TEST_ADAPTER: 'msw-node' },
  },
};
export default config;
