// storefront-contract-tools/back-office: the back office's typed client alone, for a page as well as a
// test or a script. Browser-safe: nothing here, transitively, loads a Node built-in or a dependency of the
// tools (the client is fetch and the table of calls; the types are erased), so a bundler builds a page
// importing it without stubbing anything. The package root (`storefront-contract-tools`) exports the same
// client beside the workbench, which is Node-only. test/architecture/entry-bundles.test.ts holds this
// entry to the browser, and test/sandbox/back-office-browser.test.ts builds a page on it with Vite and
// runs it in Chromium against a workbench.
export { createBackOfficeClient, BackOfficeError, type BackOfficeClient, type BackOfficeClientOptions, type BackOfficeParams } from './sandbox/back-office-client.js';
export type * from './sandbox/back-office-api.js';
