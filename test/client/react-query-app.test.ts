// A real React app on storefront-contract/react-query (react-query-app/app.tsx) in Chromium, twice: against
// the sandbox over HTTP, and against the sandbox in the page (MSW's worker and the tools' browser build,
// `storefront-contract-tools/msw`: no server for the app to reach). Bundled by esbuild (as the entry-bundle
// checks bundle the library), served from an origin of its own (so over HTTP every call is a cross-origin
// call the sandbox's CORS answers), driven by playwright-core in the Chromium of the @sparticuz/chromium
// dev dependency. It shows the list, a variant's detail and the failure of an unknown variant (the
// envelope's status, code and details), each compared with what the sandbox answers the same request in
// Node (the same seed, so the same world); one anonymous sign-in serves them all, and a 4XX is not asked
// again (the app's retry rule). Screenshots of the three states go to test-artifacts/react-query/<mode>/.
import { build } from 'esbuild';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorefrontClient, unwrap, type StorefrontClient } from 'storefront-contract';
import { buildBrowserSandbox } from '../../scripts/build-msw-browser.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { createWorkbench, sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { chromiumPath } from '../docs/site-build.js';
import { hangGuard } from '../helpers/hang-guard.js';

/** The store and its API key (public in a browser build: the sandbox's own test key of the store): the one place this test names them. */
const STORE = 'demo-store';
const API_KEY = sandboxApiKey(STORE);
/** Where the app sends its requests in the page's sandbox: an address that resolves nowhere, so only the worker answers. */
const IN_PAGE = 'http://sandbox.test';
const require = createRequire(import.meta.url);
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const here = path.dirname(fileURLToPath(import.meta.url));

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

for (const mode of ['http', 'msw'] as const) appTests(mode);

function appTests(mode: 'http' | 'msw'): void {
  const artifacts = path.join(repoRoot, 'test-artifacts/react-query', mode);
  let sandboxUrl: string;
  let workbench: Workbench;
  let site: Server;
  let siteUrl: string;
  let outdir: string;
  let browser: Browser;
  let page: Page;
  let node: StorefrontClient;
  const requests: Array<{ method: string; url: string }> = [];
  const allowOrigins: Array<string | undefined> = [];
  const problems: string[] = [];


  beforeAll(async () => {
    workbench = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, webhooks: false });
    node = createStorefrontClient({ baseUrl: workbench.url, storeId: STORE, apiKey: API_KEY, signIn: () => node.signInAnonymously().then((s) => s.access_token) });
    sandboxUrl = mode === 'http' ? workbench.url : IN_PAGE;

    outdir = await mkdtemp(path.join(os.tmpdir(), `sfc-react-app-${mode}-`));
    const env = { VITE_STOREFRONT_URL: sandboxUrl, VITE_STOREFRONT_STORE: STORE, VITE_STOREFRONT_API_KEY: API_KEY };
    let entry = path.join(here, 'react-query-app/app.tsx');
    if (mode === 'msw') {
      // What a front end's test page does first: the sandbox in the page behind MSW's worker, then the app.
      await buildBrowserSandbox({ outfile: path.join(outdir, 'sandbox.js') });
      entry = path.join(outdir, 'entry.ts');
      await writeFile(
        entry,
        `import { setupWorker } from 'msw/browser';\n` +
          `import { createSandboxHandlers } from ${JSON.stringify(path.join(outdir, 'sandbox.js'))};\n` +
          `const sandbox = await createSandboxHandlers({ baseUrl: ${JSON.stringify(IN_PAGE)} });\n` +
          `await setupWorker(...sandbox.handlers).start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'error', quiet: true });\n` +
          `await import(${JSON.stringify(path.join(here, 'react-query-app/app.tsx'))});\n`,
      );
    }
    await build({
      entryPoints: { app: entry },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      conditions: ['sfc-source'],
      define: { 'process.env.NODE_ENV': '"production"', 'import.meta.env': JSON.stringify(env) },
      outdir,
      nodePaths: [path.join(repoRoot, 'node_modules')],
      logLevel: 'silent',
    });
    await writeFile(path.join(outdir, 'index.html'), '<!doctype html>\n<html><head><meta charset="utf-8"><title>Storefront</title></head><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>\n');

    // The app's own origin: a static file server on another port than the sandbox.
    const worker = path.join(path.dirname(require.resolve('msw/package.json')), 'lib/mockServiceWorker.js');
    site = createServer(async (req, res) => {
      const name = path.basename(new URL(req.url ?? '/', 'http://site.invalid').pathname) || 'index.html';
      const body = await readFile(name === 'mockServiceWorker.js' ? worker : path.join(outdir, name)).catch(() => undefined);
      res.writeHead(body ? 200 : 404, { 'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

    browser = await chromium.launch({ executablePath: await chromiumPath(), headless: true, args: FLAGS });
    page = await browser.newPage({ viewport: { width: 900, height: 640 } });
    // A safety net for a loaded machine, not a speed check.
    page.setDefaultTimeout(20_000);
    page.on('request', (r) => requests.push({ method: r.method(), url: r.url() }));
    page.on('response', (r) => r.url().startsWith(sandboxUrl) && allowOrigins.push(r.headers()['access-control-allow-origin']));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    // The unknown variant's 404 is logged by Chromium as a failed resource: expected, the rest is not.
    page.on('console', (m) => m.type() === 'error' && !/status of 404/.test(m.text()) && problems.push(`console: ${m.text()}`));
    await mkdir(artifacts, { recursive: true });
  }, hangGuard(180_000));

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
    await workbench?.close();
    if (outdir) await rm(outdir, { recursive: true, force: true });
  });

  describe(`a React app on storefront-contract/react-query, in Chromium, against the sandbox ${mode === 'http' ? 'over HTTP' : 'in the page (MSW)'}`, () => {
    it('lists the products the sandbox lists', async () => {
      const { content } = await unwrap(node.GET('/catalog/products', { params: { query: { category_slug: ['lips'], limit: 5, sort_by: JSON.stringify({ name: 'asc' }) } } }));
      await page.goto(`${siteUrl}/`);
      const items = page.locator('ul[aria-label="Products"] > li');
      await items.first().waitFor();
      const shown = await items.allTextContents();
      expect(shown).toEqual(content.products.map((p) => `${p.name} ₹${p.pricing.selling_price}`));
      expect(await page.locator('h2').textContent()).toBe(`Lips (${content.pagination.total_records})`);
      await page.screenshot({ path: path.join(artifacts, 'list.png') });
    });

    it("opens a variant's detail from the list", async () => {
      const first = page.locator('ul[aria-label="Products"] a').first();
      const [, productId, variantId] = /#\/products\/([^/]+)\/([^/]+)$/.exec((await first.getAttribute('href'))!)!;
      const { content } = await unwrap(node.GET('/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: productId, variant_id: variantId } } }));
      await first.click();
      const article = page.locator('article[aria-label="Variant"]');
      await article.waitFor();
      expect(await article.locator('h2').textContent()).toBe(content.variant.name);
      expect(await article.locator('.sku').textContent()).toBe(content.variant.sku);
      expect(await article.locator('.price').textContent()).toBe(`₹${content.variant.pricing.selling_price}`);
      await page.screenshot({ path: path.join(artifacts, 'detail.png') });
    });

    it("shows an unknown variant's failure: status, code and details from the envelope", async () => {
      const { error, response } = await node.GET('/catalog/products/{product_id}/variants/{variant_id}', { params: { path: { product_id: 'prd_7Q2K9X', variant_id: 'var_missing' } } });
      await page.goto(`${siteUrl}/#/products/prd_7Q2K9X/var_missing`);
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.locator('h2').textContent()).toBe(`${response.status} ${error!.content.error.code}`);
      expect(await alert.locator('p').textContent()).toBe(error!.message);
      expect(await alert.locator('li').allTextContents()).toEqual(error!.content.error.details.map((d) => `${d.location} ${d.name}: ${d.message}`));
      expect(response.status).toBe(404);
      await page.screenshot({ path: path.join(artifacts, 'error.png') });
    });

    it('signed in once, called only the sandbox and its own origin, asked the 404 once, and logged no error', async () => {
      const api = requests.filter((r) => r.url.startsWith(sandboxUrl));
      // One page (the error state is a hash change), one anonymous sign-in for every query.
      expect(api.filter((r) => r.url.endsWith('/auth/anonymous')).map((r) => r.method)).toEqual(['POST']);
      // Over HTTP every answer was a cross-origin answer the browser let the app read (the worker's are the page's own).
      if (mode === 'http') expect(new Set(allowOrigins)).toEqual(new Set(['*']));
      // A 4XX is not asked again (the app's retry rule).
      expect(api.filter((r) => r.method === 'GET' && r.url.endsWith('/var_missing'))).toHaveLength(1);
      expect(requests.filter((r) => !r.url.startsWith(sandboxUrl) && !r.url.startsWith(siteUrl))).toEqual([]);
      expect(problems).toEqual([]);
    });
  });
}
