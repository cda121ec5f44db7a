// issue 37 item 4: the back office's typed client in a page. A page importing
// `storefront-contract-tools/back-office` (the package's browser-safe entry) is built by a real
// `vite build` (production, Vite's defaults) with not one warning, caught through Vite's logger and
// Rollup's onwarn; then Chromium loads the built page from a front-end's dev origin (localhost, another
// port) and the page sets up a cart on a real workbench on 127.0.0.1 through the client. The control
// routes answer only pages served from this machine (workbench/http/local-origin.ts): the same page
// served under another site's name (Chromium maps the name to 127.0.0.1) is refused and changes nothing.
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/repo.js';
import { createBackOfficeClient } from '../../workbench/back-office.js';
import type { Workbench } from '../../workbench/index.js';
import { buildVitePage, type PageBuild } from '../helpers/vite-page.js';
import { chromiumPath } from '../docs/site-build.js';
import { startSandbox, waitFor } from './helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** Another site's name for this machine: a page served under it is a foreign web page to the workbench. */
const FOREIGN_HOST = 'shop.example';
const STORE = 'bo-browser';

/** The page: the query string names the workbench and the store; the outcome is left on `window.outcome`. */
const PAGE = `import { BackOfficeError, createBackOfficeClient } from 'storefront-contract-tools/back-office';

const query = new URLSearchParams(location.search);
const office = createBackOfficeClient({ baseUrl: query.get('workbench'), storeId: query.get('store') });
const failure = (e) => (e instanceof BackOfficeError ? { status: e.status, code: e.code } : { thrown: e.name });

window.outcome = (async () => {
  let cart;
  try {
    ({ cart } = await office.createCart({ customer_id: 'cst_9XK2PL', cart_items: [{ product_id: 'prd_7Q2K9X', variant_id: 'var_4M8T2C', quantity: 1 }] }));
  } catch (e) {
    return { created: failure(e) };
  }
  const updated = await office.updateCartItem({ cart_id: cart.id, variant_id: 'var_4M8T2C' }, { quantity: 3 });
  const missing = await office.deleteCart({ cart_id: 'crt_NOBODY' }).then(() => 'deleted', failure);
  return { cartId: cart.id, quantity: updated.cart.cart_items[0].quantity, missing };
})();
`;

/** A page importing a Node built-in: Vite warns, which shows the warnings are caught. */
const NODE_PAGE = `import fs from 'node:fs';\nconsole.log(fs);\n`;

let work: string;

/** The page built in its own folder, the tools package installed there as a link to the repository's. */
async function buildPage(name: string, main: string): Promise<PageBuild> {
  const dir = path.join(work, name);
  await mkdir(path.join(dir, 'node_modules'), { recursive: true });
  await symlink(path.join(repoRoot, 'packages/storefront-contract-tools'), path.join(dir, 'node_modules/storefront-contract-tools'), 'dir');
  // The repository resolves the packages' names to their sources (the `sfc-source` condition of the
  // exports); the installed package has the compiled files at the same subpath (test/package/installed.test.ts).
  return buildVitePage(dir, main, { conditions: ['sfc-source'] });
}

/** Serves a built page's files, as a front-end's dev server or static host would. */
function servePage(root: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://page.invalid').pathname;
    const file = path.join(root, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(`${root}${path.sep}`)) return void res.writeHead(404).end();
    readFile(file).then(
      (bytes) => res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(bytes),
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let wb: Workbench;
/** The workbench's request log. */
let log = '';
let page: PageBuild;
let nodePage: PageBuild;
let pageServer: http.Server;
let browser: Browser;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'sfc-back-office-page-'));
  // One after the other: each build alone on the machine.
  page = await buildPage('page', PAGE);
  nodePage = await buildPage('node-page', NODE_PAGE);
  wb = await startSandbox({ webhooks: false, logSink: (text) => (log += text) });
  pageServer = await servePage(page.out);
  browser = await chromium.launch({
    executablePath: await chromiumPath(),
    headless: true,
    args: [...FLAGS, `--host-resolver-rules=MAP ${FOREIGN_HOST} 127.0.0.1`],
  });
}, hangGuard(180_000));

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (pageServer ? pageServer.close(resolve) : resolve(undefined)));
  await wb?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Opens the page from `origin` against the workbench and returns what it did, with the page's errors. */
async function runPage(origin: string): Promise<{ outcome: any; errors: string[] }> {
  const tab = await browser.newPage();
  const errors: string[] = [];
  tab.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  tab.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  try {
    await tab.goto(`${origin}/?workbench=${encodeURIComponent(wb.url)}&store=${STORE}`, { waitUntil: 'load' });
    const outcome = await tab.evaluate(() => (window as unknown as { outcome: Promise<unknown> }).outcome);
    return { outcome, errors };
  } finally {
    await tab.close();
  }
}

const cartsOf = async () => (await createBackOfficeClient({ baseUrl: wb.url, storeId: STORE }).getWorldResource({ resource: 'carts' })) as Array<{ id: string; cart_items: Array<{ quantity: number }> }>;

describe('issue 37 item 4: the typed back-office client in a page (storefront-contract-tools/back-office)', () => {
  it('item 4: vite build of a page importing it prints no warning and bundles no Node built-in and none of the workbench', () => {
    console.log(`vite build of the back-office page: ${page.warnings.length} warnings, ${page.jsBytes} B of JavaScript, ${page.modules.length} modules`);
    expect(page.warnings).toEqual([]);
    const bundled = page.modules.map((id) => path.relative(repoRoot, id));
    expect(bundled.filter((id) => id.includes('browser-external') || id.startsWith('node:'))).toEqual([]);
    // The client and its table of calls (the entry itself only re-exports; Rollup may leave it out).
    const workbench = bundled.filter((id) => id.startsWith('workbench/'));
    expect(workbench).toEqual(expect.arrayContaining(['workbench/sandbox/back-office-api.ts', 'workbench/sandbox/back-office-client.ts']));
    expect(workbench.filter((id) => !['workbench/back-office.ts', 'workbench/sandbox/back-office-api.ts', 'workbench/sandbox/back-office-client.ts'].includes(id))).toEqual([]);
  });

  it('item 4: the warnings are caught: a page importing a Node built-in gets Vite\'s "externalized for browser compatibility"', () => {
    expect(nodePage.warnings.join('\n')).toMatch(/node:fs.*externalized for browser compatibility/);
  });

  it('item 4: in Chromium, a page on a front-end dev origin (localhost) sets up a cart on the workbench through it', async () => {
    const origin = `http://localhost:${(pageServer.address() as AddressInfo).port}`;
    const { outcome, errors } = await runPage(origin);
    // A refusal arrives as a BackOfficeError with the envelope's status and code; the browser logs the 404 itself.
    expect(outcome).toEqual({ cartId: expect.stringMatching(/^crt_/), quantity: 3, missing: { status: 404, code: 'not_found' } });
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    // The writes reached the workbench: the cart is there, with the page's quantity.
    const cart = (await cartsOf()).find((c) => c.id === outcome.cartId);
    expect(cart?.cart_items.map((i) => i.quantity)).toEqual([3]);
  }, hangGuard(60_000));

  it("item 4: the same page served under another site's name is refused and changes nothing", async () => {
    const before = (await cartsOf()).length;
    const { outcome } = await runPage(`http://${FOREIGN_HOST}:${(pageServer.address() as AddressInfo).port}`);
    // The control routes answer the page's preflight with 403 and no CORS grant: fetch fails in the page.
    expect(outcome).toEqual({ created: { thrown: 'TypeError' } });
    // It was the workbench that refused (local-origin.ts), not the browser that held the request back.
    await waitFor(() => log.split('\n').some((line) => /^OPTIONS \/__simulator\/stores\/bo-browser\/carts 403\b/.test(line.trim())), 'the refused preflight in the log');
    expect((await cartsOf()).length).toBe(before);
  }, hangGuard(60_000));
});
