// The workbench console in Chromium, on a fresh workbench, as a developer debugging a webhook uses it:
// open /console, find a product and a cart in the world, run a storefront call and watch it appear in the
// live log, register a subscription to a local receiver (a node:http server verifying signatures with the
// library's webhook kit, with the secret the page shows once), place an order from a button, see the
// order.created attempt with a verified signature (the receiver verified it too), make the receiver fail,
// move the order and advance the store clock through the retry ladder (no sleeping), see the failed
// attempts, retry one once the receiver is back, reset the store. A screenshot of each step goes to
// test-artifacts/console/ (CONSOLE_GUIDE_IMAGES=1 also writes the guide's images to
// docs/guides/images/console/); axe-core checks the main views for serious or critical violations.
// Chromium: @sparticuz/chromium driven by playwright-core (test/docs/site-build.ts `chromiumPath`).
import { mkdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { verifySignature } from 'storefront-contract/webhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorkbench, type Workbench } from '../../workbench/index.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { chromiumPath } from '../docs/site-build.js';
import { closedPort } from '../helpers/closed-port.js';
import { hangGuard } from '../helpers/hang-guard.js';

const require = createRequire(import.meta.url);
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const ARTIFACTS = path.join(repoRoot, 'test-artifacts/console');
const GUIDE_IMAGES = path.join(repoRoot, 'docs/guides/images/console');
const forGuide = process.env.CONSOLE_GUIDE_IMAGES === '1';

interface Received {
  event: string;
  verified: boolean;
  status: number;
}

let wb: Workbench;
let receiver: http.Server;
let receiverUrl: string;
let secret = '';
let failing = false;
const received: Received[] = [];
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  if (forGuide) await mkdir(GUIDE_IMAGES, { recursive: true });
  // The developer's receiver: verifies each delivery with the receiver kit, answers 500 while `failing`.
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const verdict = verifySignature(body, req.headers['x-svc-signature'], secret ? [secret] : []);
      const status = failing ? 500 : verdict.ok ? 200 : 401;
      received.push({ event: String(req.headers['x-svc-event']), verified: verdict.ok, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(failing ? 'receiver down for maintenance' : verdict.ok ? 'ok' : 'bad signature');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true });
  browser = await chromium.launch({ executablePath: await chromiumPath(), headless: true, args: FLAGS });
  // bypassCSP: the page's CSP allows no inline script, and axe-core is injected as one.
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })).newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
}, hangGuard(120_000));

afterAll(async () => {
  await browser?.close();
  await wb?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function shot(name: string, guide = false): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  if (guide && forGuide) await page.screenshot({ path: path.join(GUIDE_IMAGES, `${name}.png`) });
}

/** axe-core in the page: no serious or critical violation on the view shown. */
async function accessible(view: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: await readFile(require.resolve('axe-core/axe.min.js'), 'utf8') });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (ctx: unknown, o: unknown) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> } }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)) }));
  });
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), `axe on ${view}`).toEqual([]);
}

const view = (name: string) => page.getByRole('navigation', { name: 'Console views' }).getByRole('button', { name, exact: true }).click();
const attemptRows = (event: string) => page.locator(`table.attempts tbody tr[data-event="${event}"]`);

it('a developer debugs a webhook delivery in the console', async () => {
  // 1. Open the console: the live log is connected.
  await page.goto(`${wb.url}/console`);
  await expect.poll(() => page.locator('.conn').textContent()).toBe('live');
  await shot('01-console-opened');
  await accessible('the request log');

  // 2. Find a product (search) and a cart in the world.
  await view('World');
  await page.getByLabel('Search').fill('kajal');
  await page.getByRole('button', { name: 'Search' }).click();
  const product = page.locator('.card', { hasText: 'Kajal Eyeliner' }).first();
  await expect.poll(() => product.count()).toBe(1);
  await expect.poll(() => product.locator('table').first().textContent()).toContain('cgrp_wholesale');
  await shot('02-world-product', true);
  await accessible('the world');
  await page.getByLabel('Browse').selectOption('carts');
  await page.getByLabel('Search').fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => page.locator('.card').count()).toBeGreaterThan(0);
  const cart = page.locator('.card').first();
  const cartId = await cart.getAttribute('data-id');
  expect(cartId).toBeTruthy();
  await shot('03-world-cart');

  // 3. Run the cart's storefront call from the page; it appears in the live log, operation matched.
  await cart.locator('summary').click();
  await expect.poll(() => cart.locator('pre').first().textContent()).toContain(`/pos/carts/${cartId}`);
  await cart.getByRole('button', { name: 'Run getPosCart' }).click();
  await expect.poll(() => cart.locator('.answer').count()).toBe(1);
  // Through the library's storefront client, signed in with the store's key: the cart, not a 401.
  expect(await cart.locator('p', { hasText: /^Answer / }).first().textContent()).toBe('Answer 200');
  expect(await cart.locator('.answer').textContent()).toContain(`"id": "${cartId}"`);
  await view('Requests');
  const entry = page.locator('.log button.entry[data-operation="getPosCart"]');
  await expect.poll(() => entry.count()).toBe(1);
  await entry.click();
  await expect.poll(() => page.locator('#request-detail').textContent()).toContain('Response body');
  // Credentials are masked in the headers the page shows.
  expect(await page.locator('#request-detail').textContent()).toContain('Bearer [masked]');
  await shot('04-live-log', true);

  // 4. Register a subscription to the local receiver; the secret is shown once and given to the receiver.
  await view('Webhooks');
  await page.getByLabel('Receiver URL').fill(receiverUrl);
  await page.getByLabel('Events (comma-separated)').fill('order.created, order.updated');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect.poll(() => page.locator('#wh-secret').count()).toBe(1);
  secret = (await page.locator('#wh-secret').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await shot('05-subscription-registered', true);
  await accessible('webhooks');

  // 5. Place an order from the back office's button.
  await view('Back office');
  await expect.poll(() => page.getByLabel('Cart').locator('option').count()).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Place an order' }).click();
  await expect.poll(() => page.locator('.results li').first().textContent()).toContain('order.created');
  await shot('06-order-placed');
  await accessible('the back office');

  // 6. The order.created delivery: delivered, its signature verified (by the console and by the receiver).
  await view('Webhooks');
  const created = attemptRows('order.created');
  await expect.poll(() => created.first().getAttribute('data-outcome'), { timeout: hangGuard(15_000) }).toBe('delivered');
  expect(await created.first().getAttribute('data-verdict')).toBe('verified');
  expect(await created.first().textContent()).toContain('signature verified');
  expect(received.find((r) => r.event === 'order.created')).toMatchObject({ verified: true, status: 200 });
  await page.locator('table.attempts').scrollIntoViewIfNeeded();
  await shot('07-delivery-verified', true);

  // 7. The receiver fails: move the order (order.updated), then advance the store clock through the retries.
  failing = true;
  await view('Back office');
  await page.getByRole('button', { name: 'Move status' }).click();
  await expect.poll(() => page.locator('.results li').first().textContent()).toContain('confirmed');
  await view('Webhooks');
  const updated = attemptRows('order.updated');
  // The first attempt failed; the next waits for its due time (5 s on the store's clock), shown scheduled.
  await expect.poll(() => updated.last().getAttribute('data-outcome'), { timeout: hangGuard(15_000) }).toBe('retry_scheduled');
  expect(await updated.first().getAttribute('data-outcome')).toBe('scheduled');
  await view('Back office');
  await page.getByLabel('Advance by (ISO 8601 duration)').fill('PT10M');
  await page.getByRole('button', { name: 'Advance clock' }).click();
  await expect.poll(() => page.locator('.results li').first().textContent(), { timeout: hangGuard(15_000) }).toContain('Advance the clock');
  await view('Webhooks');
  await expect.poll(() => updated.count(), { timeout: hangGuard(15_000) }).toBe(4);
  await expect.poll(() => updated.first().getAttribute('data-outcome'), { timeout: hangGuard(15_000) }).toBe('failed');
  expect(await updated.first().textContent()).toContain('500');
  await page.locator('table.attempts').scrollIntoViewIfNeeded();
  await shot('08-attempts-failed', true);

  // 8. The receiver is back: retry the failed delivery from its button.
  failing = false;
  await updated.first().getByRole('button', { name: 'Retry' }).click();
  await expect.poll(() => updated.count(), { timeout: hangGuard(15_000) }).toBe(5);
  await expect.poll(() => updated.first().getAttribute('data-outcome'), { timeout: hangGuard(15_000) }).toBe('delivered');
  expect(await updated.first().textContent()).toContain('manual_retry');
  expect(received.filter((r) => r.event === 'order.updated').map((r) => r.status)).toEqual([500, 500, 500, 500, 200]);
  await shot('09-retried', true);

  // The same view in a narrow window stays usable (one column, tables scroll inside their box).
  await page.setViewportSize({ width: 400, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
  await shot('10-narrow-webhooks');
  await page.setViewportSize({ width: 1280, height: 800 });

  // 9. Raise an event from its generated form; a bad value is refused by the server, next to its field.
  await view('Raise events');
  await expect.poll(() => page.locator('.event-form .field').count()).toBeGreaterThan(5);
  // An object where the schema wants an array: well-formed JSON, refused by the simulator's validation.
  await page.locator('#f-order_items').fill('{}');
  await page.getByRole('button', { name: 'Raise order.created' }).click();
  await expect.poll(() => page.locator('.field.invalid').count()).toBeGreaterThan(0);
  expect(await page.locator('.field.invalid label').first().textContent()).toContain('order_items');
  await shot('11-event-form-refused');
  await accessible('raise events');

  // 10. Reset the store.
  await view('Back office');
  await page.getByRole('button', { name: 'Reset store' }).click();
  await expect.poll(() => page.locator('.results li').first().textContent()).toContain('back to its seed');
  await shot('12-store-reset');
  expect(pageErrors).toEqual([]);
}, hangGuard(120_000));

it('item 18: the console loads with no 404 (its icon is inline): nothing fails in the browser, nothing tops its log', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const fresh = await context.newPage();
    const failed: string[] = [];
    const errors: string[] = [];
    fresh.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
    fresh.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await fresh.goto(`${wb.url}/console`);
    await expect.poll(() => fresh.locator('.conn').textContent()).toBe('live');
    const icon = await fresh.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? '';
      const image = new Image();
      image.src = href;
      await image.decode();
      return { href: href.slice(0, 25), width: image.naturalWidth };
    });
    expect(icon.href).toBe('data:image/svg+xml,%3Csvg');
    expect(icon.width).toBeGreaterThan(0);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    // Another tool asking for the icon (a tab on /docs) gets a 204, never a 404 in the workbench's log.
    expect((await fetch(`${wb.url}/favicon.ico`)).status).toBe(204);
  } finally {
    await context.close();
  }
}, hangGuard(60_000));

it("item 19: after debugging a delivery, the live log shows the app's traffic, not the console's own reads; a switch shows them", async () => {
  // The page of the session above, as the developer left it (its log holds the whole session).
  await view('Requests');
  const entries = page.locator('.log button.entry');
  await expect.poll(() => entries.count()).toBeGreaterThan(0);
  // What the developer did shows: the storefront call run from the world, the subscription, the order placed.
  const operations = await entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-operation')));
  expect(operations).toEqual(expect.arrayContaining(['getPosCart', 'createWebhook', 'POST /__simulator/stores/{store_id}/orders']));
  // The console's own reads (the back office's world, clock and keys it polls) are hidden by default...
  expect(await page.locator('.log button.entry[data-own]').count()).toBe(0);
  expect(operations.filter((o) => o?.startsWith('GET /__simulator/'))).toEqual([]);
  const hidden = Number(/\((\d+) hidden\)/.exec((await page.locator('.filters').textContent()) ?? '')?.[1]);
  expect(hidden).toBeGreaterThan(0);
  const shownBefore = await entries.count();
  // ...and the switch shows them.
  await page.getByLabel("Show the workbench's own reads (GET /__simulator/…)").check();
  await expect.poll(() => page.locator('.log button.entry[data-own]').count()).toBe(hidden);
  expect(await entries.count()).toBe(shownBefore + hidden);
  const own = await page.locator('.log button.entry[data-own]').evaluateAll((els) => els.map((e) => e.getAttribute('data-operation')));
  expect(own).toContain('GET /__simulator/stores/{store_id}/world');
  await shot('13-log-own-reads-shown');
  await page.getByLabel("Show the workbench's own reads (GET /__simulator/…)").uncheck();
  await expect.poll(() => page.locator('.log button.entry[data-own]').count()).toBe(0);
}, hangGuard(60_000));

it('item 20: attempt outcomes in words, times labelled as the store clock, an empty receiver URL, newest first everywhere, variant tables that fit 1280 px', async () => {
  // A delivery that fails to its last attempt: a subscription to a port nobody listens on, its retries played by advancing the store clock.
  const store = 'item20-store';
  const admin = { authorization: 'Bearer item-20', 'content-type': 'application/json' };
  const created = await fetch(`${wb.url}/api/v1/${store}/admin/webhooks`, { method: 'POST', headers: admin, body: JSON.stringify({ url: `http://127.0.0.1:${await closedPort()}/hooks`, events: ['order.created'] }) });
  expect(created.status).toBe(201);
  const raised = await fetch(`${wb.url}/__simulator/stores/${store}/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event: 'order.created' }) });
  expect(raised.status).toBe(202);
  const attempts = async () => ((await (await fetch(`${wb.url}/__simulator/console/stores/${store}/attempts`)).json()) as { deliveries: Array<{ outcome: string | null }> }).deliveries;
  await expect.poll(async () => (await attempts()).some((a) => a.outcome === 'retry_scheduled'), { timeout: hangGuard(15_000) }).toBe(true);
  const advanced = await fetch(`${wb.url}/__simulator/stores/${store}/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: 'PT10M' }) });
  expect(advanced.status).toBe(200);
  await expect.poll(async () => (await attempts())[0]?.outcome, { timeout: hangGuard(15_000) }).toBe('failed');

  await page.goto(`${wb.url}/console?store=${store}#webhooks`);
  const rows = page.locator('table.attempts tbody tr[data-event="order.created"]');
  await expect.poll(() => rows.count(), { timeout: hangGuard(15_000) }).toBe(4);
  // The last attempt says no retry is left; the earlier ones that a retry was scheduled.
  const states = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[1].textContent));
  expect(states[0]).toBe('failed · no retry left');
  expect(states.slice(1).every((t) => t?.startsWith('failed · retry scheduled'))).toBe(true);
  expect(states.join(' ')).not.toContain('failed · failed');
  // Newest first: attempt #4 on top.
  const numbers = await rows.evaluateAll((trs) => trs.map((tr) => Number(/#(\d+)/.exec(tr.querySelectorAll('td')[0].textContent ?? '')?.[1])));
  expect(numbers).toEqual([4, 3, 2, 1]);
  // The Time column says whose clock it shows.
  expect(await page.locator('table.attempts thead').textContent()).toContain('Time (store clock)');
  expect(await page.locator('table.attempts caption').textContent()).toContain("store's clock");
  // The receiver URL starts empty, its example a placeholder: Register cannot send a URL nobody typed.
  const url = page.getByLabel('Receiver URL');
  expect(await url.inputValue()).toBe('');
  expect(await url.getAttribute('placeholder')).toBe('http://127.0.0.1:3000/hooks');
  await shot('14-last-attempt-no-retry-left');

  // The request log is newest first too: the entry with the greatest id on top.
  await view('Requests');
  await page.getByLabel("Show the workbench's own reads (GET /__simulator/…)").check();
  await expect.poll(() => page.locator('.log button.entry').count()).toBeGreaterThan(1);
  const ids = await page.locator('.log button.entry').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))));
  expect(ids).toEqual([...ids].sort((a, b) => b - a));
  expect(await page.locator('.log').getAttribute('aria-label')).toBe('Requests, newest first');
  await page.getByLabel("Show the workbench's own reads (GET /__simulator/…)").uncheck();

  // The World view at 1280 px: no table is wider than its box (the variant tables were cut off).
  expect(page.viewportSize()?.width).toBe(1280);
  await view('World');
  for (const resource of ['products', 'carts']) {
    await page.getByLabel('Browse').selectOption(resource);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.locator('.card table').count()).toBeGreaterThan(0);
    const overflowing = await page.locator('main table').evaluateAll((tables) =>
      tables.filter((t) => t.scrollWidth > t.parentElement!.clientWidth || t.getBoundingClientRect().right > t.parentElement!.getBoundingClientRect().right + 0.5).map((t) => `${t.querySelector('caption')?.textContent}: ${t.scrollWidth} > ${t.parentElement!.clientWidth}`),
    );
    expect(overflowing, resource).toEqual([]);
  }
  await shot('15-world-1280');
  // The webhooks view's tables fit as well.
  await view('Webhooks');
  await expect.poll(() => rows.count()).toBe(4);
  const overflowing = await page.locator('main table').evaluateAll((tables) => tables.filter((t) => t.scrollWidth > t.parentElement!.clientWidth).length);
  expect(overflowing).toBe(0);
}, hangGuard(90_000));
