// A trailing slash reaches the same handler with the same result; an empty segment, anywhere, is a
// 404 envelope. Neither may fall through to the spec's examples (a fake webhook id and secret) or
// shift segments into another operation's template.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createWebhook, startWorkbench, type Bench } from '../simulator/helpers.js';

let bench: Bench;
beforeAll(async () => {
  bench = await startWorkbench();
});
afterAll(async () => {
  await bench?.close();
});

const base = (store: string) => `${bench.server.url}/api/v1/${store}`;
const hook = 'http://127.0.0.1:9/hook';

describe('trailing slash: same handler, same result', () => {
  it('POST /admin/webhooks/ registers a real subscription (its id is then readable)', async () => {
    const created = await call(base('slash-a'), 'POST', '/admin/webhooks/', { url: hook, events: ['order.created'] });
    expect(created.status).toBe(201);
    const id = created.json.content.webhook.id as string;
    const read = await call(base('slash-a'), 'GET', `/admin/webhooks/${id}/`);
    expect(read.status).toBe(200);
    expect(read.json.content.webhook.id).toBe(id);
  });

  it('POST /admin/webhooks/{id}/rotate-secret/ rotates the live subscription', async () => {
    const { id, secret } = await createWebhook(bench.server, 'slash-b', { url: hook, events: ['order.created'] });
    const rotated = await call(base('slash-b'), 'POST', `/admin/webhooks/${id}/rotate-secret/`);
    expect(rotated.status).toBe(200);
    expect(rotated.json.content.secret).not.toBe(secret);
  });
});

describe.each([
  ['POST', '/admin//webhooks'],
  ['POST', '/admin/webhooks//rotate-secret'],
  ['GET', '/admin/webhooks//deliveries'],
  ['POST', '/admin/webhooks/wh_x//test'],
  ['GET', '/storefront/pos/carts//evaluate-coupons'],
  ['GET', '/storefront/catalog//products'],
  ['GET', '/storefront//common/countries'],
])('empty segment: %s %s', (method, path) => {
  it('is a 404 with the contract envelope', async () => {
    const reply = await call(base('slash-c'), method, path, method === 'POST' ? {} : undefined, {
      authorization: 'Bearer admin-test-token',
    });
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ success: false, content: { error: { code: 'not_found' } } });
    expect(reply.text).not.toMatch(/whsec_|"secret"/);
  });
});

it('a doubled slash before the store is a 404 envelope too', async () => {
  const reply = await call(`${bench.server.url}/api/v1/`, 'GET', '/admin/webhooks');
  expect(reply.status).toBe(404);
  expect(reply.json).toMatchObject({ success: false });
});
