// The Admin webhook API served by the simulator, over HTTP through the workbench: registration rules,
// the 5-enabled limit under concurrent requests, the event catalog, the delivery log's pagination and
// filters, authentication, the designed list/get/delete operations (register AD-070 to AD-072), and the
// simulator's own /__simulator route. Every admin answer is checked
// against the contract's response schema for its status (helpers.admin).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryRules, webhookEvents } from '../../workbench/simulator/rules.js';
import { admin, call, createWebhook, deliveries, freshStore, startReceiver, startWorkbench, waitFor, type Bench, type Receiver } from './helpers.js';

let bench: Bench;
let r: Receiver;
beforeAll(async () => {
  bench = await startWorkbench({ timeScale: 0.01 });
  r = await startReceiver(() => ({ status: 200 }));
});
afterAll(async () => {
  await bench.close();
  await r.close();
});

const create = (store: string, body: unknown, headers?: Record<string, string>) => admin(bench.server, 'createWebhook', 'POST', store, '/webhooks', body, headers);

describe('createWebhook', () => {
  it('returns the subscription, a whsec_ secret once, and the ignored unknown events', async () => {
    const store = freshStore('create');
    const reply = await create(store, { url: r.url, events: ['order.created', 'order.shipped_to_moon', 'order.created'], description: 'ERP sync' });
    expect(reply.status).toBe(201);
    const { webhook, secret, ignored_events } = reply.json.content;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(ignored_events).toEqual(['order.shipped_to_moon']);
    expect(webhook).toMatchObject({ url: r.url, events: ['order.created'], status: 'enabled', marketplace_id: null, description: 'ERP sync', disabled_at: null, secret_rotated_at: null });
    expect(webhook.id).toMatch(/^wh_[0-9A-Z]{26}$/);
    // Nothing else ever shows the secret.
    const log = await call(bench.server.url, 'GET', `/api/v1/${store}/admin/webhooks/deliveries`);
    expect(log.text).not.toContain(secret);
  });

  const refusals: Array<[string, { body: unknown; status: number; code: string; name?: string }]> = [
    ['no known event', { body: { url: 'https://hooks.example.in/x', events: ['nope.nope'] }, status: 400, code: 'no_known_events', name: 'events' }],
    ['plain http to a non-loopback host', { body: { url: 'http://hooks.example.in/x', events: ['order.created'] }, status: 400, code: 'invalid_url', name: 'url' }],
    ['ftp URL', { body: { url: 'ftp://hooks.example.in/x', events: ['order.created'] }, status: 400, code: 'invalid_url', name: 'url' }],
    ['reserved X-SVC- header', { body: { url: 'https://h.example.in/x', events: ['order.created'], custom_headers: { 'x-svc-signature': 'sha256=00' } }, status: 400, code: 'invalid_body', name: 'custom_headers.x-svc-signature' }],
    ['reserved User-Agent', { body: { url: 'https://h.example.in/x', events: ['order.created'], custom_headers: { 'User-Agent': 'me' } }, status: 400, code: 'invalid_body', name: 'custom_headers.User-Agent' }],
    ['reserved Content-Type', { body: { url: 'https://h.example.in/x', events: ['order.created'], custom_headers: { 'content-type': 'text/plain' } }, status: 400, code: 'invalid_body', name: 'custom_headers.content-type' }],
    ['CR LF in a value', { body: { url: 'https://h.example.in/x', events: ['order.created'], custom_headers: { 'X-A': 'ok\r\nX-Injected: 1' } }, status: 400, code: 'invalid_body', name: 'custom_headers.X-A' }],
    ['a value over the size limit', { body: { url: 'https://h.example.in/x', events: ['order.created'], custom_headers: { 'X-A': 'v'.repeat(deliveryRules.customHeaders.maxValueLength + 1) } }, status: 400, code: 'invalid_body', name: 'custom_headers.X-A' }],
    ['a name over the size limit', { body: { url: 'https://h.example.in/x', events: ['order.created'], custom_headers: { ['X-' + 'a'.repeat(deliveryRules.customHeaders.maxNameLength)]: 'v' } }, status: 400, code: 'invalid_body' }],
    ['a name that is not a token', { body: { url: 'https://h.example.in/x', events: ['order.created'], custom_headers: { 'X A': 'v' } }, status: 400, code: 'invalid_body', name: 'custom_headers.X A' }],
    ['too many headers', { body: { url: 'https://h.example.in/x', events: ['order.created'], custom_headers: Object.fromEntries(Array.from({ length: deliveryRules.customHeaders.maxCount + 1 }, (_, i) => [`X-H${i}`, 'v'])) }, status: 400, code: 'invalid_body', name: 'custom_headers' }],
    ['an unknown field', { body: { url: 'https://h.example.in/x', events: ['order.created'], custom_header: {} }, status: 400, code: 'invalid_body' }],
    ['events missing', { body: { url: 'https://h.example.in/x' }, status: 400, code: 'invalid_body' }],
  ];
  it.each(refusals)('refuses %s', async (_name, { body, status, code, name }) => {
    const store = freshStore('refuse');
    const reply = await create(store, body);
    expect(reply.status, reply.text).toBe(status);
    expect(reply.json.content.error.code).toBe(code);
    if (name) expect(reply.json.content.error.details.map((d: any) => d.name)).toContain(name);
    // Nothing was created: the store can still take the full limit.
    for (let i = 0; i < deliveryRules.maxEnabledWebhooksPerStore; i++) expect((await create(store, { url: r.url, events: ['order.created'] })).status).toBe(201);
  });

  it('refuses malformed JSON (400), a non-JSON body (415) and a body over 64 KiB (413)', async () => {
    const store = freshStore('body');
    const malformed = await call(bench.server.url, 'POST', `/api/v1/${store}/admin/webhooks`, '{"url":', { authorization: 'Bearer t', 'content-type': 'application/json' });
    expect([malformed.status, malformed.json.content.error.code]).toEqual([400, 'malformed_json']);
    const text = await call(bench.server.url, 'POST', `/api/v1/${store}/admin/webhooks`, 'url=x', { authorization: 'Bearer t', 'content-type': 'text/plain' });
    expect([text.status, text.json.content.error.code]).toEqual([415, 'unsupported_media_type']);
    const big = await create(store, { url: r.url, events: ['order.created'], description: 'x'.repeat(70 * 1024) });
    expect([big.status, big.json.content.error.code]).toEqual([413, 'payload_too_large']);
  });

  it('at most 5 enabled webhooks per store, also under concurrent registrations', async () => {
    const store = freshStore('limit');
    const max = deliveryRules.maxEnabledWebhooksPerStore;
    const replies = await Promise.all(Array.from({ length: max + 4 }, () => create(store, { url: r.url, events: ['order.created'] })));
    const statuses = replies.map((x) => x.status).sort();
    expect(statuses).toEqual([...Array(max).fill(201), ...Array(4).fill(409)]);
    const refused = replies.find((x) => x.status === 409)!;
    expect(refused.json.content.error.code).toBe('webhook_limit_reached');
    expect(refused.json.message).toContain(`${max} enabled webhooks`);
    // Other stores are not affected.
    expect((await create(freshStore('other'), { url: r.url, events: ['order.created'] })).status).toBe(201);
  });
});

describe('authentication (any non-empty bearer token by default)', () => {
  it.each([
    ['no Authorization', {}, 'Bearer'],
    ['an empty bearer', { authorization: 'Bearer ' }, 'Bearer error="invalid_request"'],
    ['another scheme', { authorization: 'Basic dTpw' }, 'Bearer error="invalid_request"'],
    ['a storefront API key', { 'x-api-key': 'sk_test_1' }, 'Bearer'],
  ])('401 with %s', async (_name, headers, challenge) => {
    const reply = await admin(bench.server, 'listWebhookEventTypes', 'GET', 'demo-store', '/webhooks/event-types', undefined, headers as Record<string, string>);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe(challenge);
    expect(reply.json.content.error.code).toBe('unauthorized');
  });
});

describe('listWebhookEventTypes', () => {
  it('lists the AsyncAPI catalog, by family then name', async () => {
    const reply = await admin(bench.server, 'listWebhookEventTypes', 'GET', 'demo-store', '/webhooks/event-types');
    expect(reply.status).toBe(200);
    const types = reply.json.content.event_types;
    expect(types.map((t: any) => t.name).sort()).toEqual(webhookEvents.map((e) => e.event).sort());
    expect(types.find((t: any) => t.name === 'inventory.updated')).toMatchObject({ family: 'catalog', marketplace_scoped: true });
    expect(types.find((t: any) => t.name === 'seller.order.created')).toMatchObject({ marketplace_scoped: false });
    expect(types[0].family).toBe('orders');
    const families = types.map((t: any) => t.family);
    expect(families.filter((f: string, i: number) => f !== families[i - 1])).toHaveLength(new Set(families).size);
  });
});

describe('listWebhookDeliveries', () => {
  it('one row per attempt, newest first, paginated and filterable', async () => {
    const store = freshStore('log');
    const a = await createWebhook(bench.server, store, { url: r.url, events: ['order.created', 'cart.updated'] });
    const b = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    const e1 = bench.sim.trigger(store, 'order.created');
    const e2 = bench.sim.trigger(store, 'cart.updated');
    await waitFor(async () => ((x) => x.length === 3 && x.every((y) => y.status === 'succeeded'))(await deliveries(bench.server, store)), 'three deliveries');

    const page1 = await admin(bench.server, 'listWebhookDeliveries', 'GET', store, '/webhooks/deliveries?limit=2');
    expect(page1.json.content.pagination).toEqual({ total_records: 3, total_pages: 2, limit: 2, next_page: 2, previous_page: null });
    expect(page1.json.content.deliveries[0].event_id).toBe(e2.event_id);
    const page2 = await admin(bench.server, 'listWebhookDeliveries', 'GET', store, '/webhooks/deliveries?limit=2&page=2');
    expect(page2.json.content.pagination).toMatchObject({ next_page: null, previous_page: 1 });
    expect(page2.json.content.deliveries).toHaveLength(1);

    const filters: Array<[string, number]> = [
      [`webhook_id=${b.id}`, 1],
      [`webhook_id=${a.id}`, 2],
      ['event=order.created', 2],
      [`event_id=${e2.event_id}`, 1],
      ['status=succeeded', 3],
      ['status=failed', 0],
      [`event=order.created&webhook_id=${a.id}`, 1],
    ];
    for (const [query, count] of filters) {
      const reply = await admin(bench.server, 'listWebhookDeliveries', 'GET', store, `/webhooks/deliveries?${query}`);
      expect(reply.json.content.pagination.total_records, query).toBe(count);
    }
    // Another store sees none of them.
    const other = await admin(bench.server, 'listWebhookDeliveries', 'GET', freshStore('empty'), '/webhooks/deliveries');
    expect(other.json.content.pagination.total_records).toBe(0);
    void e1;
  });

  it.each([
    ['page=0', 'page'],
    ['limit=0', 'limit'],
    ['limit=2.5', 'limit'],
    ['page=abc', 'page'],
    ['status=lost', 'status'],
  ])('400 invalid_parameter for %s', async (query, name) => {
    const reply = await admin(bench.server, 'listWebhookDeliveries', 'GET', 'demo-store', `/webhooks/deliveries?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.json.content.error).toMatchObject({ code: 'invalid_parameter', details: [{ location: 'query', name }] });
  });
});

describe('rotate-secret and unknown webhooks', () => {
  it('rotation returns a new secret once; unknown ids are 404', async () => {
    const store = freshStore('rot');
    const { id, secret } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] });
    const rotated = await admin(bench.server, 'rotateWebhookSecret', 'POST', store, `/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.json.content.webhook_id).toBe(id);
    expect(rotated.json.content.secret).not.toBe(secret);
    const missing = await admin(bench.server, 'rotateWebhookSecret', 'POST', store, '/webhooks/wh_NOPE/rotate-secret');
    expect(missing.status).toBe(404);
    // A webhook of another store is unknown here.
    const foreign = await admin(bench.server, 'rotateWebhookSecret', 'POST', freshStore('x'), `/webhooks/${id}/rotate-secret`);
    expect(foreign.status).toBe(404);
  });
});

describe('listWebhooks, getWebhook, deleteWebhook (designed: AD-070 to AD-072)', () => {
  const list = (store: string, query = '') => admin(bench.server, 'listWebhooks', 'GET', store, `/webhooks${query}`);
  const get = (store: string, id: string) => admin(bench.server, 'getWebhook', 'GET', store, `/webhooks/${id}`);
  const remove = (store: string, id: string) => admin(bench.server, 'deleteWebhook', 'DELETE', store, `/webhooks/${id}`);

  it('lists subscriptions newest first, paginated, filtered by status, without secrets or header values', async () => {
    const store = freshStore('list');
    const gone = await startReceiver(() => ({ status: 410 }));
    try {
      const a = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'], custom_headers: { 'X-Partner-Tenant': 'tenant-credential-42' } });
      const b = await createWebhook(bench.server, store, { url: r.url, events: ['cart.updated'] });
      const c = await createWebhook(bench.server, store, { url: gone.url, events: ['order.created'] });
      // A 410 disables c permanently.
      expect((await admin(bench.server, 'sendTestWebhook', 'POST', store, `/webhooks/${c.id}/test`)).status).toBe(202);
      await waitFor(async () => (await get(store, c.id)).json.content.webhook.status === 'disabled', 'c disabled by its 410');

      const page1 = await list(store, '?limit=2');
      expect(page1.status).toBe(200);
      expect(page1.json.content.pagination).toEqual({ total_records: 3, total_pages: 2, limit: 2, next_page: 2, previous_page: null });
      expect(page1.json.content.webhooks.map((w: any) => w.id)).toEqual([c.id, b.id]);
      const page2 = await list(store, '?limit=2&page=2');
      expect(page2.json.content.pagination).toMatchObject({ total_records: 3, next_page: null, previous_page: 1 });
      expect(page2.json.content.webhooks.map((w: any) => w.id)).toEqual([a.id]);
      expect(page2.json.content.webhooks[0]).toEqual({ ...a.reply.json.content.webhook });
      expect(page2.json.content.webhooks[0].custom_header_names).toEqual(['X-Partner-Tenant']);

      const enabled = await list(store, '?status=enabled');
      expect(enabled.json.content.webhooks.map((w: any) => w.id)).toEqual([b.id, a.id]);
      const disabled = await list(store, '?status=disabled');
      expect(disabled.json.content.webhooks).toEqual([expect.objectContaining({ id: c.id, status: 'disabled', disabled_reason: 'subscriber_gone' })]);
      expect(disabled.json.content.pagination.total_records).toBe(1);

      const all = await list(store, '?limit=100');
      for (const secret of [a.secret, b.secret, c.secret, 'tenant-credential-42']) expect(all.text).not.toContain(secret);
      expect((await list(freshStore('nobody'))).json.content).toEqual({ webhooks: [], pagination: { total_records: 0, total_pages: 0, limit: 20, next_page: null, previous_page: null } });
    } finally {
      await gone.close();
    }
  });

  it.each([
    ['status=paused', 'status'],
    ['page=0', 'page'],
    ['limit=1.5', 'limit'],
  ])('400 invalid_parameter for %s', async (query, name) => {
    const reply = await list('demo-store', `?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.json.content.error).toMatchObject({ code: 'invalid_parameter', details: [{ location: 'query', name }] });
  });

  it('gets one subscription; unknown ids and other stores are 404; event-types and deliveries are not taken as ids', async () => {
    const store = freshStore('get');
    const { id, secret, reply: created } = await createWebhook(bench.server, store, { url: r.url, events: ['order.created'], custom_headers: { 'X-A': 'value-a' } });
    const got = await get(store, id);
    expect(got.status).toBe(200);
    expect(got.json.content.webhook).toEqual(created.json.content.webhook);
    expect(got.text).not.toContain(secret);
    expect(got.text).not.toContain('value-a');
    expect((await get(store, 'wh_NOPE')).status).toBe(404);
    const foreign = await get(freshStore('x'), id);
    expect([foreign.status, foreign.json.content.error.code]).toEqual([404, 'not_found']);
    // The fixed segments still reach their own operations.
    expect(Object.keys((await admin(bench.server, 'listWebhookEventTypes', 'GET', store, '/webhooks/event-types')).json.content)).toEqual(['event_types']);
    expect(Object.keys((await admin(bench.server, 'listWebhookDeliveries', 'GET', store, '/webhooks/deliveries')).json.content)).toEqual(['deliveries', 'pagination']);
    // And cannot be deleted as if they were ids (the document answers 405).
    expect((await call(bench.server.url, 'DELETE', `/api/v1/${store}/admin/webhooks/event-types`)).status).toBe(405);
  });

  it('401 without an admin credential on all three', async () => {
    const none = {};
    for (const [op, method, path] of [
      ['listWebhooks', 'GET', '/webhooks'],
      ['getWebhook', 'GET', '/webhooks/wh_X'],
      ['deleteWebhook', 'DELETE', '/webhooks/wh_X'],
    ] as const) {
      const reply = await admin(bench.server, op, method, 'demo-store', path, undefined, none);
      expect([reply.status, reply.json.content.error.code], op).toEqual([401, 'unauthorized']);
    }
  });

  it('delete frees a slot of the 5-enabled limit; deleting twice is 404, and so is every operation on the id', async () => {
    const store = freshStore('del');
    const max = deliveryRules.maxEnabledWebhooksPerStore;
    const ids: string[] = [];
    for (let i = 0; i < max; i++) ids.push((await createWebhook(bench.server, store, { url: r.url, events: ['order.created'] })).id);
    expect((await create(store, { url: r.url, events: ['order.created'] })).status).toBe(409);

    const deleted = await remove(store, ids[2]);
    expect(deleted.status).toBe(200);
    expect(deleted.json.content).toMatchObject({ webhook: { id: ids[2], status: 'enabled' }, cancelled_deliveries: 0 });
    expect(Date.parse(deleted.json.content.deleted_at)).toBeGreaterThan(0);

    const sixth = await create(store, { url: r.url, events: ['order.created'] });
    expect(sixth.status).toBe(201);
    expect((await create(store, { url: r.url, events: ['order.created'] })).status).toBe(409);
    const listed = await list(store);
    expect(listed.json.content.pagination.total_records).toBe(max);
    expect(listed.json.content.webhooks.map((w: any) => w.id)).not.toContain(ids[2]);

    const again = await remove(store, ids[2]);
    expect([again.status, again.json.content.error.code]).toEqual([404, 'not_found']);
    expect((await get(store, ids[2])).status).toBe(404);
    expect((await admin(bench.server, 'rotateWebhookSecret', 'POST', store, `/webhooks/${ids[2]}/rotate-secret`)).status).toBe(404);
    expect((await admin(bench.server, 'sendTestWebhook', 'POST', store, `/webhooks/${ids[2]}/test`)).status).toBe(404);
    // Another store cannot delete it.
    expect((await remove(freshStore('thief'), ids[0])).status).toBe(404);
    expect((await get(store, ids[0])).status).toBe(200);
  });

  it('delete cancels pending retries: no further attempt arrives, the log keeps the rows as cancelled', async () => {
    const store = freshStore('delretry');
    const failing = await startReceiver(() => ({ status: 503 }));
    try {
      const { id } = await createWebhook(bench.server, store, { url: failing.url, events: ['order.created'] });
      const raised = bench.sim.trigger(store, 'order.created');
      // At time scale 0.01 the delays are 50 ms, 300 ms, 3 s: after the third attempt the fourth waits 3 s.
      const pending = await waitFor(async () => {
        if (failing.captured.length < 3) return undefined;
        return (await deliveries(bench.server, store, `webhook_id=${id}`)).find((d) => d.status === 'scheduled');
      }, 'the fourth attempt scheduled');
      const deleted = await remove(store, id);
      expect(deleted.status).toBe(200);
      expect(deleted.json.content.cancelled_deliveries).toBe(1);
      const sent = failing.captured.length;

      // Nothing more will arrive, read from the state (not from a wait past the due time): the
      // scheduled rows are the retry queue, and the one that was pending is cancelled, none scheduled or in flight.
      const log = await deliveries(bench.server, store, `webhook_id=${id}`);
      expect(failing.captured.length).toBe(sent);
      expect(log.every((d) => d.event_id === raised.event_id)).toBe(true);
      expect(log.filter((d) => d.status === 'failed')).toHaveLength(sent);
      expect(log.find((d) => d.delivery_id === pending.delivery_id)).toMatchObject({ status: 'cancelled', outcome: 'cancelled' });
      expect(log.filter((d) => d.status === 'scheduled' || d.status === 'in_flight')).toEqual([]);
      const cancelled = await admin(bench.server, 'listWebhookDeliveries', 'GET', store, `/webhooks/deliveries?webhook_id=${id}&status=cancelled`);
      expect(cancelled.json.content.pagination.total_records).toBe(1);
      // Retrying a logged attempt of the deleted webhook is 404 (the subscription is gone).
      const retry = await admin(bench.server, 'retryWebhookDelivery', 'POST', store, `/webhooks/${id}/deliveries/${log[0].delivery_id}/retry`);
      expect(retry.status).toBe(404);
    } finally {
      await failing.close();
    }
  });
});

describe('POST /__simulator/stores/{store_id}/events (outside the contract)', () => {
  const raise = (store: string, body: unknown) => call(bench.server.url, 'POST', `/__simulator/stores/${store}/events`, body, {});

  it('raises the catalog example with deep-merged overrides, marked outside the contract', async () => {
    const store = freshStore('raise');
    const got = await startReceiver(() => ({ status: 200 }));
    try {
      const { id } = await createWebhook(bench.server, store, { url: got.url, events: ['order.created'] });
      const reply = await raise(store, { event: 'order.created', properties: { order_number: 'SO-77' } });
      expect(reply.status).toBe(202);
      expect(reply.headers['x-simulator']).toBe('outside-contract');
      expect(reply.json.content).toMatchObject({ event: 'order.created', store_id: store, skipped: [] });
      expect(reply.json.content.deliveries).toEqual([expect.objectContaining({ webhook_id: id, status: 'scheduled', trigger: 'event', attempt: 1 })]);
      await waitFor(() => got.captured.length === 1, 'delivery');
      const body = got.captured[0].body;
      const example = webhookEvents.find((e) => e.event === 'order.created')!.example.payload.payload.properties as Record<string, unknown>;
      expect(body.payload.properties).toEqual({ ...example, order_number: 'SO-77' });
      expect(body.payload.store_id).toBe(store);
      expect(body.event_id).toBe(reply.json.content.event_id);
    } finally {
      await got.close();
    }
  });

  it.each([
    ['an unknown event', { event: 'order.exploded' }, 'event', /Unknown event "order.exploded"/],
    ['no event', { properties: {} }, 'event', /body field 'event' is required/],
    ['properties that break the schema', { event: 'order.created', properties: { order_number: 42 } }, 'properties.order_number', /order_number must be string/],
    ['properties that are not an object', { event: 'order.created', properties: [1] }, 'properties', /body field 'properties' must be object/],
    ['an unknown field', { event: 'order.created', propertes: {} }, 'propertes', /body field 'propertes' is not an allowed property/],
    ['unset of a required property', { event: 'order.created', unset: ['order_number'] }, 'properties.order_number', /order_number/],
    ['unset of a missing path', { event: 'order.created', unset: ['no_such_field'] }, 'unset', /no_such_field/],
  ])('400 naming the problem for %s', async (_name, body, name, message) => {
    const reply = await raise('demo-store', body);
    expect(reply.status).toBe(400);
    expect(reply.headers['x-simulator']).toBe('outside-contract');
    expect(reply.json.content.error.details.map((d: any) => d.name)).toContain(name);
    expect(reply.json.message).toMatch(message);
  });
});
