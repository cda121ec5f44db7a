// The sandbox's images in a real browser: a page served from another origin (a front-end's dev server)
// shows the product images the storefront API names, as <img> tags (no CORS, Sec-Fetch-Site:
// cross-site) and drawn into a canvas with crossorigin (CORS), at the size the URL names.
// Chromium comes from @sparticuz/chromium (test/docs/site-build.ts `chromiumPath`), driven by playwright-core.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Workbench } from '../../workbench/index.js';
import { chromiumPath } from '../docs/site-build.js';
import { anonymous, call, q, startSandbox } from './helpers.js';
import { hangGuard } from '../helpers/hang-guard.js';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

let wb: Workbench;
let page: http.Server;
let pageUrl: string;
let browser: Browser;
let urls: string[];

beforeAll(async () => {
  wb = await startSandbox({ webhooks: false });
  const { auth } = await anonymous(wb);
  const list = await call(wb, 'listProducts', 'GET', `/catalog/products${q({ limit: 3 })}`, { headers: auth });
  urls = list.json.content.products.flatMap((p: any) => [p.images[0].url_thumbnail, p.images[0].url_tiny]);
  // The front-end: another origin (localhost, not 127.0.0.1, and another port), serving one page.
  const html = `<!doctype html><body>${urls.map((u, i) => `<img id="i${i}" src="${u}">`).join('')}
<img id="cors" crossorigin="anonymous" src="${urls[0]}"></body>`;
  page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://localhost:${(page.address() as AddressInfo).port}/`;
  browser = await chromium.launch({ executablePath: await chromiumPath(), headless: true, args: FLAGS });
}, hangGuard(120_000));

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => page?.close(resolve));
  await wb?.close();
});

it('a page on another origin shows the images at their sizes, with and without CORS', async () => {
  const tab = await browser.newPage();
  await tab.goto(pageUrl, { waitUntil: 'load' });
  const loaded = await tab.evaluate(() =>
    Array.from(document.images).map((img) => {
      let readable = false;
      if (img.id === 'cors') {
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const g = canvas.getContext('2d')!;
        g.drawImage(img, 0, 0);
        g.getImageData(0, 0, 1, 1); // throws on a tainted canvas: CORS must allow it
        readable = true;
      }
      return { id: img.id, complete: img.complete, width: img.naturalWidth, height: img.naturalHeight, readable };
    }),
  );
  expect(loaded).toHaveLength(urls.length + 1);
  loaded.forEach((img, i) => {
    const size = i < urls.length ? Number(/-(\d+)\.svg$/.exec(urls[i])![1]) : 240;
    expect(img, img.id).toMatchObject({ complete: true, width: size, height: size });
  });
  expect(loaded.at(-1)!.readable).toBe(true);
}, hangGuard(60_000));
