// The sandbox in process answers as the HTTP sandbox does. One request sequence (sequence.ts: sign-in,
// filtered and sorted lists, variant, cart, coupons, fulfillment, orders, create customer, another store's
// token, refusals of bad input) runs against `storefront-contract mock`'s workbench on a loopback port and
// against the MSW handlers of `storefront-contract-tools/msw` under msw/node's setupServer (their base URL
// resolves nowhere, so only MSW can answer), and against the browser build (bundled as npm run build
// bundles it) run in Node; the transcripts must be equal once the values made up per run are named.
import { setupServer } from 'msw/node';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxHandlers, type InProcessSandbox } from 'storefront-contract-tools/msw';
import { createWorkbench, type Workbench } from 'storefront-contract-tools';
import { buildBrowserSandbox } from '../../scripts/build-msw-browser.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { runSequence, STORE, type Exchange, type FetchLike } from './sequence.js';

const BASE = 'http://sandbox.test';
const frozenAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
// The same options for every engine: the seeded world dated from the same day.
const sandboxOptions = { seed: 7, anchor: Date.parse(frozenAt) };

let wb: Workbench;
let sandbox: InProcessSandbox;
let server: ReturnType<typeof setupServer>;
let browserSandbox: InProcessSandbox;
let bundleDir: string;
let http: Exchange[];

beforeAll(async () => {
  wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, sandbox: sandboxOptions });
  sandbox = await createSandboxHandlers({ baseUrl: BASE, sandbox: sandboxOptions });
  server = setupServer(...sandbox.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  // The browser build, bundled into a folder of the repository so that its `msw` import resolves.
  // tmp/ is ignored by git: a fresh clone has none.
  await mkdir(path.join(repoRoot, 'tmp'), { recursive: true });
  bundleDir = await mkdtemp(path.join(repoRoot, 'tmp', 'msw-parity-'));
  await buildBrowserSandbox({ outfile: path.join(bundleDir, 'browser.js') });
  const browserBuild = (await import(path.join(bundleDir, 'browser.js'))) as typeof import('../../workbench/msw/browser.js');
  browserSandbox = await browserBuild.createSandboxHandlers({ baseUrl: BASE, sandbox: sandboxOptions });
  // undici's own fetch: MSW intercepts the global one, and the HTTP sandbox must be reached on its port.
  http = await runSequence(undiciFetch as unknown as FetchLike, wb.url, { frozenAt });
});

afterAll(async () => {
  server?.close();
  await sandbox?.close();
  await browserSandbox?.close();
  await wb?.close();
  if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
});

describe('the sandbox in process vs the HTTP sandbox', () => {
  it('the HTTP run is the sequence it should be (so equal transcripts mean something)', () => {
    expect(http.map((e) => `${e.status} ${e.step}`)).toEqual([
      '200 anonymous sign-in',
      '401 sign-in without the API key',
      '200 filtered and sorted list',
      '200 second page, wholesale group',
      '400 a sort field the list does not have',
      '200 variant with inventory',
      '200 similar products',
      '200 cart',
      '404 unknown cart',
      '200 coupons of the cart',
      '200 fulfillment options',
      '200 orders of a customer, delivered, newest first',
      '200 countries',
      '200 HEAD of a list',
      '405 a method the path does not take',
      '404 a path the API does not have',
      '201 create customer',
      "200 the new customer's cards",
      '400 create customer, body not JSON',
      '413 create customer, body too large',
      '200 sign-in on another store',
      "401 another store's token",
      '401 a token never issued',
      '400 bad percent-encoding in an id',
      '200 a trailing slash',
      '404 an empty segment',
      '431 headers over 16 KB',
      '200 back office: the world',
    ]);
    expect(JSON.stringify(http)).toContain('<random 1>');
    expect(http.find((e) => e.step === "another store's token")?.body).toMatchObject({ message: expect.stringContaining('other-store') });
  });

  it('MSW handlers in Node (setupServer) answer the same statuses, headers and bodies', async () => {
    const msw = await runSequence(globalThis.fetch, BASE, { frozenAt });
    expect(msw).toEqual(http);
  });

  it("the browser build, run in Node, answers the same (Chromium runs it in chromium.test.ts)", async () => {
    expect(await runSequence(browserSandbox.fetch, BASE, { frozenAt })).toEqual(http);
  });

  it('reset() gives a fresh sandbox: tokens and created records are gone, the handlers keep answering', async () => {
    const api = `${BASE}/api/v1/${STORE}/storefront`;
    const signIn = await fetch(`${api}/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': sandbox.apiKey(STORE) } });
    const token = ((await signIn.json()) as { content: { access_token: string } }).content.access_token;
    expect((await fetch(`${api}/common/countries`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await sandbox.reset();
    const refused = await fetch(`${api}/common/countries`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('a base URL with a path: the path is taken off before the API path, as a reverse proxy would', async () => {
    const proxied = await createSandboxHandlers({ baseUrl: 'https://shop.test/backend/', webhooks: false });
    try {
      expect(proxied.baseUrl).toBe('https://shop.test/backend');
      const res = await proxied.fetch(`${proxied.baseUrl}/api/v1/${STORE}/storefront/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': proxied.apiKey(STORE) } });
      expect(res.status).toBe(200);
    } finally {
      await proxied.close();
    }
    await expect(createSandboxHandlers({ baseUrl: '/relative' })).rejects.toThrow('baseUrl "/relative" is not an absolute URL');
  });
});
