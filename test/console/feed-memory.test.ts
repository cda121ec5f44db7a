// Issue 37 item 21: the request log kept every request body with no console open (500 requests of a 1 MB
// body raised the workbench's RSS from ~150 to 650 MB, and it stayed). Now it keeps no body while no page
// watches, and at most its byte budget of bodies while one does. Real HTTP on loopback to one workbench
// (sandbox, simulator, console), 1 MB fulfillment bodies answered 200; asserted on the feed's accounted bytes
// (its counter, and a walk of every body its entries reference), not on timing or RSS (that is the bench's
// memory row: bench/scaling/memory.ts).
import http from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbench, sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { FEED_BODY_BYTES, type FeedDetail, type FeedSummary } from '../../workbench/http/request-feed.js';
import { hangGuard } from '../helpers/hang-guard.js';

const BUDGET = 64 * 1024;
const BODY_LIMIT = 1024 * 1024;
const STORE = 'feed-memory-store';

let wb: Workbench;
let auth: Record<string, string>;

beforeAll(async () => {
  wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, console: { bodyBudget: BUDGET } });
  const res = await request(`${wb.url}/api/v1/${STORE}/storefront/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': sandboxApiKey(STORE) } });
  const token = ((await res.body.json()) as { content: { access_token: string } }).content.access_token;
  auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}, hangGuard(60_000));

afterAll(async () => {
  await wb?.close();
});

/** `count` fulfillment requests whose body is 1 MB (the pincode fills the body limit), each answered 200. */
async function largeBodies(count: number): Promise<void> {
  const shell = JSON.stringify({ cart_id: 'crt_8N2F6Q', delivery_pincode: '' });
  for (let i = 0; i < count; i++) {
    const head = String(i).padStart(6, '0');
    const body = JSON.stringify({ cart_id: 'crt_8N2F6Q', delivery_pincode: head + '7'.repeat(BODY_LIMIT - shell.length - head.length) });
    const res = await request(`${wb.url}/api/v1/${STORE}/storefront/shipping/fulfillment-options`, { method: 'POST', headers: auth, body });
    await res.body.text();
    expect(res.statusCode).toBe(200);
  }
}

const consoleGet = async <T>(path: string): Promise<T> => (await (await request(`${wb.url}/__simulator/console${path}`)).body.json()) as T;
const fulfillments = async (): Promise<FeedSummary[]> => (await consoleGet<{ requests: FeedSummary[] }>('/requests')).requests.filter((e) => e.operation === 'getFulfillmentOptions');

describe('issue 37 item 21: request bodies are not kept without a console, and bounded by bytes with one', () => {
  it('item 21: with no console open, 20 requests of a 1 MB body leave no body in the log', async () => {
    expect(wb.console!.streams()).toHaveLength(0);
    await largeBodies(20);
    const feed = wb.console!.feed;
    const logged = await fulfillments();
    expect(logged).toHaveLength(20);
    expect(feed.heldBytes).toBe(0);
    // Walked: no entry references a body, the request as read included (what had held 1 MB each).
    expect(feed.countHeldBytes()).toBe(0);
    const detail = await consoleGet<FeedDetail>(`/requests/${logged.at(-1)!.id}`);
    expect(detail).toMatchObject({ status: 200, bodies_kept: false, request: { body: null }, response: { body: null } });
    expect(detail.bodies_note).toMatch(/only while a console page is open/);
  });

  it('item 21: with a console open, the log keeps each body cut to 8 KB and all of them within the byte budget', async () => {
    const page = http.get(`${wb.url}/__simulator/console/requests/stream`, (res) => res.resume());
    try {
      await expect.poll(() => wb.console!.streams().length).toBe(1);
      const before = (await fulfillments()).at(-1)!.id;
      await largeBodies(20);
      const feed = wb.console!.feed;
      expect(feed.bodyBudget).toBe(BUDGET);
      // 20 requests of 8 KB kept each (plus their answers) is over 160 KB: the budget binds.
      expect(feed.heldBytes).toBeGreaterThan(BUDGET - 2 * FEED_BODY_BYTES);
      expect(feed.heldBytes).toBeLessThanOrEqual(BUDGET);
      expect(feed.countHeldBytes()).toBe(feed.heldBytes);
      const logged = (await fulfillments()).filter((e) => e.id > before);
      expect(logged).toHaveLength(20);
      // The newest keep their bodies, cut at the bound; the oldest had theirs dropped for the budget.
      const newest = await consoleGet<FeedDetail>(`/requests/${logged.at(-1)!.id}`);
      expect(newest).toMatchObject({ bodies_kept: true, request: { truncated: true } });
      expect(newest.request.body!.length).toBeLessThanOrEqual(FEED_BODY_BYTES + 20);
      expect(newest.response.body).toContain('fulfillment');
      const oldest = await consoleGet<FeedDetail>(`/requests/${logged[0].id}`);
      expect(oldest).toMatchObject({ status: 200, bodies_kept: false, request: { body: null }, response: { body: null } });
      expect(oldest.bodies_note).toMatch(/dropped: the log keeps 64 KB of bodies/);
    } finally {
      page.destroy();
    }
    await expect.poll(() => wb.console!.streams().length).toBe(0);
  });
});
