// Browser test of the built documentation site: Debian's Chromium, driven by playwright-core, opens
// every page through the mock workbench's /docs (the way users reach it) and checks that it renders:
// no console errors, no page errors, no request leaving loopback, and the content that proves the
// reference is complete (every operation, every event of the catalog). Screenshots go to
// test-artifacts/docs/ (git-ignored; CI uploads them).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOperations } from '../../generated/operations/admin.js';
import { storefrontOperations } from '../../generated/operations/storefront.js';
import { webhookEvents } from '../../generated/webhooks/catalog.js';
import { loadDereferenced } from '../../scripts/lib/load-spec.js';
import { repoRoot } from '../../src/contract/spec-files.js';
import { readGuides } from '../../scripts/docs/guides.js';
import { guideHref, references, siteDir } from '../../scripts/docs/pages.js';
import { createMockServer, type MockServer } from '../../workbench/mock/server.js';
import { chromiumPath, ensureSiteBuilt } from './site-build.js';

const ARTIFACTS = path.join(repoRoot, 'test-artifacts/docs');
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

let browser: Browser;
let server: MockServer;
let base: string;

interface Visit {
  page: Page;
  problems: string[];
}

/** Opens one site page, collecting everything that counts as broken, and screenshots it. */
async function visit(href: string, shot: string, ready?: (page: Page) => Promise<unknown>): Promise<Visit> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  // The site must be self-contained: anything not served by the loopback server is a defect.
  await page.route(/^(?!https?:\/\/127\.0\.0\.1[:/]|data:|blob:|about:)/, (route) => {
    problems.push(`external request: ${route.request().url()}`);
    return route.abort();
  });
  const response = await page.goto(`${base}/${href}`, { waitUntil: 'load' });
  expect(response?.status(), `${href} status`).toBe(200);
  if (ready) await ready(page);
  await page.screenshot({ path: path.join(ARTIFACTS, `${shot}.png`) });
  return { page, problems };
}

beforeAll(async () => {
  const executablePath = await chromiumPath();
  const build = await ensureSiteBuilt();
  console.log(build.rebuilt ? `docs site built for the test in ${build.seconds.toFixed(1)}s` : 'docs site reused (newer than its inputs)');
  await mkdir(ARTIFACTS, { recursive: true });
  server = await createMockServer({ port: 0, host: '127.0.0.1', quiet: true, docsRoot: siteDir });
  base = server.bases.docs;
  browser = await chromium.launch({ executablePath, headless: true, args: FLAGS });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('docs site in Chromium', () => {
  it('landing page links every reference and every guide, and every link resolves', async () => {
    const { page, problems } = await visit('', 'landing');
    const hrefs = await page.$$eval('main a', (as) => as.map((a) => a.getAttribute('href')));
    const guides = await readGuides();
    for (const r of references) expect(hrefs).toContain(r.href);
    for (const g of guides) expect(hrefs).toContain(guideHref(g.slug));
    // Every relative link on the landing page and in the nav answers 200 through /docs.
    const all = await page.$$eval('a[href]', (as) => as.map((a) => (a as HTMLAnchorElement).href));
    for (const url of new Set(all.filter((u) => u.startsWith(base)).map((u) => u.split('#')[0]))) {
      const res = await page.request.get(url);
      expect(res.status(), url).toBe(200);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  const openapi = [
    ['storefront', storefrontOperations, 12],
    ['admin', adminOperations, 10],
  ] as const;
  for (const [id, operations, count] of openapi) {
    it(`${id} reference shows all ${count} operations`, async () => {
      const ids = Object.values(operations).map((o) => o.operationId);
      expect(ids).toHaveLength(count);
      const doc = await loadDereferenced(id);
      const summaries = new Map<string, string>();
      for (const item of Object.values<any>(doc.paths)) for (const op of Object.values<any>(item)) if (op?.operationId) summaries.set(op.operationId, op.summary);
      const href = references.find((r) => r.id === id)!.href;
      const { page, problems } = await visit(href, `reference-${id}`, (p) => p.waitForSelector('[data-testid="panel-overview"]'));
      // Redoc 3 lists operations in the navigation as hash routes (#/<tag>/<operationid>), rendering
      // the list lazily: scroll through it, then open each operation from its link and wait for its
      // section (a heading with the operation's summary) to render.
      await page.evaluate(async () => {
        for (let i = 0; i < 40; i++) {
          window.scrollBy(0, 2000);
          await new Promise((r) => setTimeout(r, 50));
        }
      });
      const routes = await page.$$eval('a[href^="#/"]', (as) => as.map((a) => a.getAttribute('href')!));
      for (const operationId of ids) {
        const route = routes.find((r) => r.split('/').pop() === operationId.toLowerCase());
        expect(route, `${operationId} in the ${id} reference navigation`).toBeDefined();
        await page.click(`a[href="${route}"]`);
        // On a busy machine a click can land before the lazily rendered list is ready: click again while
        // the section has not rendered (opening the same hash route twice is harmless).
        await expect
          .poll(
            async () => {
              const headings = await page.$$eval('h1, h2', (hs) => hs.map((h) => h.textContent?.trim()));
              if (!headings.includes(summaries.get(operationId) ?? '')) await page.click(`a[href="${route}"]`).catch(() => undefined);
              return headings;
            },
            { timeout: 20_000, interval: 500 },
          )
          .toContain(summaries.get(operationId));
      }
      await page.screenshot({ path: path.join(ARTIFACTS, `reference-${id}-last-operation.png`) });
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it('events reference shows every event of the catalog', async () => {
    const names = webhookEvents.map((e) => e.event);
    expect(names.length).toBeGreaterThan(0);
    const href = references.find((r) => r.id === 'events')!.href;
    // The template hydrates after load (schemas render collapsed, data comes from js/app.js), so the
    // check reads the rendered DOM text, not index.html.
    const { page, problems } = await visit(href, 'events', (p) => p.waitForFunction((n) => document.body.innerText.includes(n), names[names.length - 1]));
    const text = await page.evaluate(() => document.body.innerText);
    const missing = names.filter((n) => !text.includes(n));
    expect(missing, 'events missing from the rendered reference').toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('every guide renders with its title and a working layout', async () => {
    const guides = await readGuides();
    expect(guides.map((g) => g.slug)).toEqual(expect.arrayContaining(['inferred-decisions']));
    for (const guide of guides) {
      const { page, problems } = await visit(guideHref(guide.slug), `guide-${guide.slug}`);
      expect(await page.textContent('main h1'), guide.slug).toBe(guide.title);
      expect(await page.$eval('link[rel=stylesheet]', (l) => (l as HTMLLinkElement).sheet !== null), `${guide.slug} stylesheet`).toBe(true);
      expect(problems, guide.slug).toEqual([]);
      await page.close();
    }
  });
});
