// The Admin webhook API against the seed (4.4, 2.18, 5.6, 6.1.4, 8) and against the webhook contract it
// manages: the seven operations, their methods and paths, and the rules the seed states about them; and
// that the three designed operations (list, get, delete a subscription) are marked inferred.
import { describe, expect, it } from 'vitest';
import { loadDereferenced, type JsonObject } from '../../scripts/lib/load-spec.js';

const admin = await loadDereferenced('admin');
const webhooks = await loadDereferenced('webhooks');

const operations = new Map<string, { method: string; path: string; op: JsonObject }>();
for (const [path, item] of Object.entries<JsonObject>(admin.paths)) {
  for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
    if (item[method]) operations.set(item[method].operationId, { method: method.toUpperCase(), path, op: item[method] });
  }
}
const op = (id: string) => operations.get(id)!.op;
const content = (schema: JsonObject): JsonObject => schema.allOf[1].properties.content;
const json = (response: JsonObject) => response.content['application/json'];
const exampleValues = (response: JsonObject) => Object.values<JsonObject>(json(response).examples).map((e) => e.value);

const SEED_OPERATIONS: Array<[string, string, string]> = [
  ['createWebhook', 'POST', '/webhooks'],
  ['rotateWebhookSecret', 'POST', '/webhooks/{id}/rotate-secret'],
  ['sendTestWebhook', 'POST', '/webhooks/{id}/test'],
  ['listWebhookEventTypes', 'GET', '/webhooks/event-types'],
  ['listWebhookDeliveries', 'GET', '/webhooks/deliveries'],
  ['retryWebhookDelivery', 'POST', '/webhooks/{id}/deliveries/{delivery_id}/retry'],
  ['replayWebhookEvent', 'POST', '/webhooks/{id}/replay-event/{event_id}'],
];

describe('seed 4.4: the seven admin webhook operations', () => {
  it.each(SEED_OPERATIONS)('%s is %s %s', (id, method, path) => {
    expect(operations.get(id)).toMatchObject({ method, path });
  });

  it('has exactly those seven from the seed; every other operation is marked inferred', () => {
    const fromSeed = [...operations].filter(([, { op: o }]) => o['x-contract-source'] !== 'inferred').map(([id]) => id);
    expect(fromSeed.sort()).toEqual(SEED_OPERATIONS.map(([id]) => id).sort());
    for (const [id] of SEED_OPERATIONS) expect(op(id)['x-contract-source'], id).toBe('seed');
  });

  it('is not under the storefront prefix (base path inferred)', () => {
    const server = admin.servers[0];
    expect(server.url).toBe('{base_url}/api/v1/{store_id}/admin');
    expect(server.url).not.toContain('/storefront');
    expect(server['x-contract-source']).toBe('inferred');
  });

  it('requires the admin credential on every operation', () => {
    expect(admin.components.securitySchemes.adminBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [id, { op: o }] of operations) {
      expect(o.security, id).toEqual([{ adminBearer: [] }]);
      expect(o.responses['401'], id).toBeDefined();
    }
  });
});

describe('designed operations complementing seed 4.4 (register AD-070 to AD-072)', () => {
  it.each<[string, string, string]>([
    ['listWebhooks', 'GET', '/webhooks'],
    ['getWebhook', 'GET', '/webhooks/{id}'],
    ['deleteWebhook', 'DELETE', '/webhooks/{id}'],
  ])('%s is %s %s and marked x-contract-source: inferred', (id, method, path) => {
    expect(operations.get(id)).toMatchObject({ method, path });
    expect(op(id)['x-contract-source']).toBe('inferred');
  });

  it('the seven seed operations and the three designed ones are all there is', () => expect(operations.size).toBe(10));

  it('list and get return WebhookSubscription records, never a secret or custom header values', () => {
    const rows = content(json(op('listWebhooks').responses['200']).schema).properties.webhooks.items;
    const one = content(json(op('getWebhook').responses['200']).schema).properties.webhook;
    for (const record of [rows, one]) {
      expect(record.title).toBe('WebhookSubscription');
      for (const forbidden of ['secret', 'custom_headers', 'signing_secret']) expect(record.properties[forbidden], forbidden).toBeUndefined();
    }
    const names = op('listWebhooks').parameters.map((p: JsonObject) => `${p.in}:${p.name}`);
    expect(names).toEqual(['query:page', 'query:limit', 'query:status']);
    expect(op('listWebhooks').parameters[2].schema.enum).toEqual(rows.properties.status.enum);
  });

  it('delete answers 200 with the final record, and 404 for an unknown (or already deleted) id', () => {
    const del = op('deleteWebhook');
    expect(Object.keys(del.responses).sort()).toEqual(['200', '401', '404']);
    expect(content(json(del.responses['200']).schema).required).toEqual(expect.arrayContaining(['webhook', 'deleted_at', 'cancelled_deliveries']));
    expect(exampleValues(del.responses['404'])[0].content.error.code).toBe('not_found');
  });
});

describe('seed 2.18, 6.1.4, 8: registering a subscription', () => {
  const create = op('createWebhook');
  const request = create.requestBody.content['application/json'].schema;

  it.each<[string, string]>([
    ['events', 'array'],
    ['custom_headers', 'object'],
    ['marketplace_id', 'string'],
    ['url', 'string'],
  ])('the request has %s (%s)', (field, type) => expect(request.properties[field].type).toBe(type));

  it('events are strings, custom header values are strings, url and events are required', () => {
    expect(request.properties.events.items.type).toBe('string');
    expect(request.properties.custom_headers.additionalProperties.type).toBe('string');
    expect(request.required).toEqual(expect.arrayContaining(['url', 'events']));
  });

  it('returns the subscription, the secret (once) and the ignored unknown events', () => {
    const body = content(json(create.responses['201']).schema);
    expect(body.required).toEqual(expect.arrayContaining(['webhook', 'secret', 'ignored_events']));
    const [value] = exampleValues(create.responses['201']);
    expect(value.content.secret).toMatch(/^whsec_/);
    expect(value.content.ignored_events.length).toBeGreaterThan(0);
    for (const e of value.content.ignored_events) expect(value.content.webhook.events).not.toContain(e);
  });

  it('never puts the secret or custom header values in the subscription record', () => {
    const sub = content(json(create.responses['201']).schema).properties.webhook.properties;
    for (const forbidden of ['secret', 'custom_headers', 'signing_secret']) expect(sub[forbidden], forbidden).toBeUndefined();
    expect(sub.events.type).toBe('array');
    expect(sub.marketplace_id.type).toEqual(['string', 'null']);
  });

  it('refuses a sixth enabled webhook with 409 webhook_limit_reached (limit 5 from the webhook contract)', () => {
    expect(webhooks['x-delivery-rules'].maxEnabledWebhooksPerStore).toBe(5);
    const [value] = exampleValues(create.responses['409']);
    expect(value.success).toBe(false);
    expect(value.content.error.code).toBe('webhook_limit_reached');
    expect(value.message).toContain('5');
  });

  it('refuses reserved custom header names in the request schema', () => {
    const names = request.properties.custom_headers.propertyNames;
    const reserved = names.not.anyOf.map((p: JsonObject) => new RegExp(p.pattern));
    for (const header of ['X-SVC-Signature', 'x-svc-event', 'User-Agent', 'content-type', 'Host']) {
      expect(reserved.some((r: RegExp) => r.test(header)), header).toBe(true);
    }
    expect(reserved.some((r: RegExp) => r.test('X-Partner-Tenant'))).toBe(false);
  });
});

describe('seed 4.4, 5.6: rotate, test, retry, replay', () => {
  it('rotate-secret returns the new secret', () => {
    const body = content(json(op('rotateWebhookSecret').responses['200']).schema);
    expect(body.required).toContain('secret');
  });

  it.each(['sendTestWebhook', 'retryWebhookDelivery', 'replayWebhookEvent'])('%s answers 202 with the new delivery, and 409 webhook_disabled', (id) => {
    const o = op(id);
    expect(content(json(o.responses['202']).schema).required).toContain('delivery');
    const codes = exampleValues(o.responses['409']).map((v) => v.content.error.code);
    expect(codes).toContain('webhook_disabled');
  });

  it('test deliveries are is_test: true', () => {
    const [value] = exampleValues(op('sendTestWebhook').responses['202']);
    expect(value.content.delivery.is_test).toBe(true);
  });
});

describe('seed 4.4: event types and the delivery log', () => {
  it('lists exactly the event catalog of the webhook contract', () => {
    const [value] = exampleValues(op('listWebhookEventTypes').responses['200']);
    const listed = value.content.event_types.map((t: JsonObject) => [t.name, t.family, t.marketplace_scoped]).sort();
    const catalog = Object.entries<JsonObject>(webhooks.components.messages)
      .map(([name, m]) => [name, m['x-event-family'], m['x-marketplace-scoped']])
      .sort();
    expect(listed).toEqual(catalog);
  });

  it('paginates and filters the log by webhook, event, event id and status', () => {
    const names = op('listWebhookDeliveries').parameters.map((p: JsonObject) => `${p.in}:${p.name}`);
    expect(names).toEqual(expect.arrayContaining(['query:page', 'query:limit', 'query:webhook_id', 'query:event', 'query:event_id', 'query:status']));
    const body = content(json(op('listWebhookDeliveries').responses['200']).schema);
    expect(body.required).toEqual(expect.arrayContaining(['deliveries', 'pagination']));
  });

  it('logs one row per attempt, never a secret, signature or header value', () => {
    const row = content(json(op('listWebhookDeliveries').responses['200']).schema).properties.deliveries.items;
    expect(row.required).toEqual(expect.arrayContaining(['delivery_id', 'event_id', 'attempt', 'response_status', 'error_class', 'next_retry_at']));
    for (const name of Object.keys(row.properties)) expect(name).not.toMatch(/secret|signature|header/);
  });
});
