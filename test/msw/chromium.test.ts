// The sandbox's browser build in Chromium, behind MSW's service worker, answers as the HTTP sandbox does.
// A page served from a loopback server loads an app bundled the way a front end's bundler would
// (msw/browser + storefront-contract-tools/msw's browser build, as `npm run build` makes it, + the
// request sequence of sequence.ts), starts the worker (mockServiceWorker.js from the msw package) and
// runs the sequence with the page's own fetch against a base URL that resolves nowhere: only the worker
// can answer. Its transcript must equal the HTTP sandbox's. The page's app also holds a client made when
// its module loads, with `signIn`, which must keep working across the sandbox's reset() (issue 37 item 2).
// Chromium: test/docs/site-build.ts.
import { build } from 'esbuild';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbench, sandboxApiKey, type Workbench } from 'storefront-contract-tools';
import { buildBrowserSandbox } from '../../scripts/build-msw-browser.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { chromiumPath } from '../docs/site-build.js';
import { runSequence, STORE, type Exchange, type FetchLike } from './sequence.js';
import { hangGuard } from '../helpers/hang-guard.js';

const require = createRequire(import.meta.url);
const BASE = 'http://sandbox.test';
const frozenAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
const sandboxOptions = { seed: 7, anchor: Date.parse(frozenAt) };
/** The store of the sign-in across reset() (issue 37 item 2): apart from the sequence's. */
const RESET_STORE = 'session-reset-store';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

let wb: Workbench;
let site: Server;
let browser: Browser;
let page: Page;
let workDir: string;
let http: Exchange[];
const pageErrors: string[] = [];

/** The test app: what a front end's test page does with the package, plus the sequence to run. */
const APP = (sandboxModule: string) => `
import { setupWorker } from 'msw/browser';
import { createStorefrontClient } from 'storefront-contract';
import { createSandboxHandlers } from ${JSON.stringify(sandboxModule)};
import { runSequence } from ${JSON.stringify(path.join(repoRoot, 'test/msw/sequence.ts'))};

// An app's client, made when its module loads (before the worker starts), signing in when it needs a token.
const tokens = [];
const client = createStorefrontClient({
  baseUrl: ${JSON.stringify(BASE)},
  storeId: ${JSON.stringify(RESET_STORE)},
  apiKey: ${JSON.stringify(sandboxApiKey(RESET_STORE, { seed: sandboxOptions.seed }))},
  signIn: () => client.signInAnonymously().then(({ access_token }) => (tokens.push(access_token), access_token)),
});

const sandbox = await createSandboxHandlers({ baseUrl: ${JSON.stringify(BASE)}, sandbox: ${JSON.stringify(sandboxOptions)} });
const worker = setupWorker(...sandbox.handlers);
await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
window.sandbox = sandbox;
window.runSequence = (frozenAt) => runSequence((url, init) => fetch(url, init), ${JSON.stringify(BASE)}, { frozenAt });
// One call, the sandbox's reset (tokens forgotten), the next call: statuses and the tokens used.
window.callsAcrossReset = async () => {
  const before = await client.GET('/common/countries');
  await sandbox.reset();
  const after = await client.GET('/common/countries');
  return { statuses: [before.response.status, after.response.status], countries: after.data?.content.countries.length, tokens };
};
window.ready = true;
`;

beforeAll(async () => {
  const executablePath = await chromiumPath();
  wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, sandbox: sandboxOptions });
  http = await runSequence(undiciFetch as unknown as FetchLike, wb.url, { frozenAt });

  // tmp/ is ignored by git: a fresh clone has none.
  await mkdir(path.join(repoRoot, 'tmp'), { recursive: true });
  workDir = await mkdtemp(path.join(repoRoot, 'tmp', 'msw-chromium-'));
  const sandboxBuild = await buildBrowserSandbox({ outfile: path.join(workDir, 'browser.js') });
  console.log(`sandbox browser build: ${(sandboxBuild.bytes / 1024).toFixed(0)} kB, ${(sandboxBuild.gzipBytes / 1024).toFixed(0)} kB gzip`);
  const app = await build({
    stdin: { contents: APP(path.join(workDir, 'browser.js')), resolveDir: repoRoot, sourcefile: 'app.ts', loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // `storefront-contract` from its sources, as the repository's tests import it.
    conditions: ['sfc-source'],
    logLevel: 'silent',
  });
  const files: Record<string, { type: string; body: string | Buffer }> = {
    '/': { type: 'text/html; charset=utf-8', body: '<!doctype html><meta charset="utf-8"><title>sandbox in the page</title><script type="module" src="/app.js"></script>' },
    '/app.js': { type: 'text/javascript; charset=utf-8', body: app.outputFiles[0].text },
    '/mockServiceWorker.js': { type: 'text/javascript; charset=utf-8', body: await readFile(path.join(path.dirname(require.resolve('msw/package.json')), 'lib/mockServiceWorker.js')) },
  };
  site = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));

  browser = await chromium.launch({ executablePath, headless: true, args: FLAGS });
  page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const started = Date.now();
  await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true, undefined, { timeout: hangGuard(60_000) });
  console.log(`page loaded, sandbox started and worker registered in ${Date.now() - started} ms`);
}, hangGuard(240_000));

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  await wb?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('the sandbox in Chromium, behind MSW\'s worker', () => {
  it('answers the request sequence with the same statuses, headers and bodies as the HTTP sandbox', async () => {
    const inPage = (await page.evaluate((at) => (window as unknown as { runSequence(at: string): Promise<unknown> }).runSequence(at), frozenAt)) as Exchange[];
    expect(http.length).toBeGreaterThan(20);
    expect(inPage).toEqual(http);
    expect(pageErrors).toEqual([]);
  });

  it('says what the page cannot do: Prefer controls (Prism) and the Admin API (webhook delivery)', async () => {
    const answers = (await page.evaluate(async ([base, store]) => {
      const api = `${base}/api/v1/${store}/storefront`;
      const key = (window as unknown as { sandbox: { apiKey(store: string): string } }).sandbox.apiKey(store);
      const signIn = await (await fetch(`${api}/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': key } })).json();
      const auth = { authorization: `Bearer ${signIn.content.access_token}` };
      const prefer = await fetch(`${api}/common/countries`, { headers: { ...auth, prefer: 'code=404' } });
      const admin = await fetch(`${base}/api/v1/${store}/admin/webhooks`, { headers: { authorization: 'Bearer t' } });
      return [
        { status: prefer.status, body: await prefer.json() },
        { status: admin.status, body: await admin.json() },
      ];
    }, [BASE, STORE] as const)) as Array<{ status: number; body: { message: string; content: { error: { code: string } } } }>;
    expect(answers.map((a) => [a.status, a.body.content.error.code])).toEqual([
      [400, 'invalid_parameter'],
      [404, 'not_found'],
    ]);
    expect(answers[0].body.message).toContain('Prism, which runs only in Node');
    expect(answers[1].body.message).toContain('Admin webhook API and webhook delivery need Node');
  });
});

describe('issue 37 item 2: a client with signIn across the sandbox reset, in Chromium behind MSW\'s worker', () => {
  it("item 2: the module-level client's next call after reset() gets a fresh token and succeeds", async () => {
    const result = (await page.evaluate(() => (window as unknown as { callsAcrossReset(): Promise<unknown> }).callsAcrossReset())) as { statuses: number[]; countries: number; tokens: string[] };
    expect(result.statuses).toEqual([200, 200]);
    expect(result.countries).toBeGreaterThan(0);
    // Signed in before the first call and again after the reset refused the first token.
    expect(result.tokens).toHaveLength(2);
    expect(result.tokens[1]).not.toBe(result.tokens[0]);
    expect(pageErrors).toEqual([]);
  });
});
