// Every fact the seed states about webhook deliveries (seed 2.17, 2.18, 3.2, 4.5, 5.5, 5.6, 6, 7, 8, 9),
// checked one by one against spec/asyncapi/webhooks.yaml. A row fails when the fact disappears or changes.
import { createHmac } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadDereferenced, type JsonObject } from '../../scripts/lib/load-spec.js';

const doc = await loadDereferenced('webhooks');
const messages: Array<[string, JsonObject]> = Object.entries(doc.components.messages);
const message = (name: string): JsonObject => doc.components.messages[name];
const rules: JsonObject = doc['x-delivery-rules'];

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, allErrors: true });
ajvFormats.default(ajv);
const validator = (schema: JsonObject) => ajv.compile(schema);

/** Properties and required names a schema guarantees, through allOf (the shape a receiver can rely on). */
function shape(schema: JsonObject | undefined): { properties: Record<string, JsonObject>; required: Set<string> } {
  const out = { properties: {} as Record<string, JsonObject>, required: new Set<string>() };
  if (!schema) return out;
  Object.assign(out.properties, schema.properties ?? {});
  for (const r of schema.required ?? []) out.required.add(r);
  for (const part of schema.allOf ?? []) {
    const inner = shape(part);
    for (const [k, v] of Object.entries(inner.properties)) out.properties[k] = out.properties[k] ? { allOf: [out.properties[k], v] } : v;
    for (const r of inner.required) out.required.add(r);
  }
  return out;
}
const typesOf = (s: JsonObject): string[] => {
  if (s.type) return [s.type].flat();
  return [...new Set<string>((s.allOf ?? []).flatMap(typesOf))];
};
const envelope = message('order.created').payload.allOf[0];
const envelopeShape = shape(envelope);
const innerShape = shape(envelope.properties.payload);
/** The `payload.properties` schema of a message. */
const propertiesSchema = (m: JsonObject): JsonObject => m.payload.allOf[1].properties.payload.properties.properties;
const example = (m: JsonObject) => m.examples[0];

const SEED_FAMILIES = ['orders', 'payments', 'shipping', 'invoices', 'carts', 'catalog', 'coupons-promotions', 'customers', 'store', 'marketplace'];

describe('seed 2.17: WebhookEnvelope', () => {
  it.each<[string, string[]]>([
    ['event', ['string']],
    ['event_id', ['string']],
    ['delivery_id', ['string']],
    ['timestamp', ['string']],
    ['is_test', ['boolean']],
    ['payload', ['object']],
  ])('envelope field %s is required with type %j', (field, types) => {
    expect(envelopeShape.required.has(field)).toBe(true);
    expect(typesOf(envelopeShape.properties[field])).toEqual(types);
  });

  it.each<[string, string[]]>([
    ['event', ['string']],
    ['event_id', ['string']],
    ['store_id', ['string']],
    ['store_type', ['string']],
    ['user_id', ['string']],
    ['admin_user_id', ['string', 'null']],
    ['timestamp', ['string']],
    ['properties', ['object']],
  ])('payload field %s is required with type %j', (field, types) => {
    expect(innerShape.required.has(field)).toBe(true);
    expect(typesOf(innerShape.properties[field])).toEqual(types);
  });

  it('is titled WebhookEnvelope', () => expect(envelope.title).toBe('WebhookEnvelope'));

  it('shows store_type b2c without closing the set', () => {
    const storeType = innerShape.properties.store_type;
    expect(storeType.enum).toBeUndefined();
    expect(storeType.examples).toContain('b2c');
  });

  const outer = validator(envelopeShape.properties.timestamp);
  const inner = validator(innerShape.properties.timestamp);
  it.each<[string, string, boolean, boolean]>([
    // value, label, valid as outer timestamp (ISO 8601 with offset), valid as payload timestamp (UTC)
    ['2025-11-14T09:41:07Z', 'Z', true, true],
    ['2025-11-14T09:41:07.118Z', 'fraction and Z', true, true],
    ['2025-11-14T09:41:07+00:00', '+00:00', true, true],
    ['2025-11-14T15:11:07+05:30', '+05:30', true, false],
    ['2025-11-14T09:41:07', 'no offset', false, false],
    ['2025-11-14', 'date only', false, false],
  ])('timestamp %s (%s): outer %s, payload %s', (value, _label, outerOk, innerOk) => {
    expect(outer(value)).toBe(outerOk);
    expect(inner(value)).toBe(innerOk);
  });

  it('event_id is the idempotency key and delivery_id is per attempt (descriptions say so)', () => {
    expect(envelopeShape.properties.event_id.description).toMatch(/retries/i);
    expect(envelopeShape.properties.event_id.description).toMatch(/idempotency/i);
    expect(envelopeShape.properties.delivery_id.description).toMatch(/unique per attempt/i);
  });
});

describe('seed 6.2, 5.5: delivery headers', () => {
  const headers = shape(message('order.created').headers);
  it.each(['X-SVC-Event', 'X-SVC-Signature', 'X-SVC-Event-ID', 'X-SVC-Delivery-ID', 'User-Agent'])('header %s is required', (name) => {
    expect(headers.required.has(name)).toBe(true);
  });

  it('User-Agent is Service-Webhooks/1.0 (seed 6.2, 9)', () => {
    expect(message('order.created').headers.allOf[0].properties['User-Agent'].const).toBe('Service-Webhooks/1.0');
    expect(rules.userAgent).toBe('Service-Webhooks/1.0');
  });

  const signatureSchema = message('order.created').headers.allOf[0].properties['X-SVC-Signature'];
  it('X-SVC-Signature has the pattern ^sha256=[0-9a-f]{64}$', () => expect(signatureSchema.pattern).toBe('^sha256=[0-9a-f]{64}$'));
  const signature = validator(signatureSchema);
  const hex = 'a'.repeat(64);
  it.each<[string, string, boolean]>([
    ['lowercase hex', `sha256=${'0123456789abcdef'.repeat(4)}`, true],
    ['uppercase hex', `sha256=${'A'.repeat(64)}`, false],
    ['sha1= prefix', `sha1=${hex}`, false],
    ['SHA256= prefix', `SHA256=${hex}`, false],
    ['bare hex', hex, false],
    ['63 hex chars', `sha256=${hex.slice(1)}`, false],
    ['65 hex chars', `sha256=${hex}a`, false],
    ['trailing space', `sha256=${hex} `, false],
    ['empty', '', false],
  ])('signature %s -> valid %s', (_label, value, ok) => expect(signature(value)).toBe(ok));

  it('custom headers are allowed as extra string headers (seed 6.1.3)', () => {
    const extra = message('order.created').headers.allOf[0].additionalProperties;
    expect(extra.type).toBe('string');
    expect(extra.description).toMatch(/custom_headers/);
  });

  it('every message pins X-SVC-Event to its own name', () => {
    for (const [name, m] of messages) expect(m.headers.allOf[1].properties['X-SVC-Event'].const, name).toBe(name);
  });

  it('describes the signature rule of seed 5.5 and the rotation rule of 5.6', () => {
    const text = message('order.created').headers.allOf[0].description as string;
    for (const phrase of [/HMAC-SHA256/, /raw request body bytes/, /lowercase hexadecimal/, /constant time/, /does not start with `sha256=` is invalid/, /new secret only/]) {
      expect(text).toMatch(phrase);
    }
  });
});

describe('seed 3.2, 6.1, 7, 8: delivery rules (x-delivery-rules)', () => {
  it.each<[string, unknown]>([
    ['method', 'POST'],
    ['timeoutSeconds', 30],
    ['retryDelaysSeconds', [5, 30, 300]],
    ['maxAttempts', 4],
    ['successStatus', '2XX'],
    ['disableStatus', 410],
    ['disablePermanent', true],
    ['delivery', 'at-least-once'],
    ['ordering', 'unordered'],
    ['dedupeKey', 'event_id'],
    ['maxEnabledWebhooksPerStore', 5],
    ['unknownEvents', 'ignored'],
    ['userAgent', 'Service-Webhooks/1.0'],
  ])('%s = %j', (key, value) => {
    expect(rules[key]).toEqual(value);
    expect(rules.sources[key]).toBe('seed');
  });

  it('has three retries, so maxAttempts is one more than the delays', () => {
    expect(rules.retryDelaysSeconds).toHaveLength(3);
    expect(rules.maxAttempts).toBe(rules.retryDelaysSeconds.length + 1);
  });

  it.each<[string, unknown]>([
    ['header', 'X-SVC-Signature'],
    ['algorithm', 'hmac-sha256'],
    ['encoding', 'hex-lowercase'],
    ['prefix', 'sha256='],
    ['over', 'raw-body'],
    ['pattern', '^sha256=[0-9a-f]{64}$'],
    ['comparison', 'constant-time'],
    ['rotationOverlapSeconds', 0],
  ])('signature.%s = %j', (key, value) => expect(rules.signature[key]).toEqual(value));

  it.each<[string, string]>([
    ['event', 'X-SVC-Event'],
    ['eventId', 'X-SVC-Event-ID'],
    ['deliveryId', 'X-SVC-Delivery-ID'],
    ['signature', 'X-SVC-Signature'],
  ])('headers.%s = %s', (key, value) => expect(rules.headers[key]).toBe(value));

  it('marks redirects as failures (inferred) and gives a source for every rule', () => {
    expect(rules.redirects).toBe('failure');
    expect(rules.sources.redirects).toBe('inferred');
    const ruleKeys = Object.keys(rules).filter((k) => k !== 'sources').sort();
    // Every rule has a source; a dotted key gives a nested part of a rule its own source.
    expect(Object.keys(rules.sources).filter((k) => !k.includes('.')).sort()).toEqual(ruleKeys);
    for (const key of Object.keys(rules.sources).filter((k) => k.includes('.'))) {
      const [rule, part] = key.split('.');
      expect(rules[rule]?.[part], `x-delivery-rules.${key}`).toBeDefined();
    }
    expect(rules.sources['customHeaders.addedTo']).toBe('seed');
    expect(rules.sources['marketplaceScope.missingField']).toBe('inferred');
    for (const v of Object.values(rules.sources)) expect(['seed', 'inferred']).toContain(v);
  });

  it('reserves the seed headers from custom headers', () => {
    for (const name of ['X-SVC-*', 'User-Agent', 'Content-Type']) expect(rules.customHeaders.reserved).toContain(name);
  });

  it('describes the schedule in the operation (any 2XX, 410, 30 s, 5 s / 30 s / 5 min)', () => {
    const text = doc.operations.deliverWebhook.description as string;
    for (const phrase of ['any 2XX', '410', '30 s', '5 s, 30 s, then 5 min', 'new `delivery_id`', 'same `event_id`']) expect(text).toContain(phrase);
  });
});

describe('seed 4.5, 6.1.1, 9: channel, operation, version', () => {
  it('is webhook contract 1.0, in beta', () => {
    expect(doc.asyncapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.description).toMatch(/beta/);
  });

  it('POSTs over HTTPS to the subscriber endpoint', () => {
    expect(doc.servers.subscriber.protocol).toBe('https');
    const op = doc.operations.deliverWebhook;
    expect(op.action).toBe('send');
    expect(op.bindings.http.method).toBe('POST');
    expect(op.channel).toBe(doc.channels.subscriberEndpoint);
  });

  it('lists every message in the deliverWebhook operation and the channel', () => {
    const names = messages.map(([n]) => n).sort();
    const inChannel = Object.keys(doc.channels.subscriberEndpoint.messages).sort();
    expect(inChannel).toEqual(names);
    expect(doc.operations.deliverWebhook.messages).toHaveLength(names.length);
    for (const m of doc.operations.deliverWebhook.messages) expect(messages.map(([, v]) => v)).toContain(m);
  });

  it('sends JSON WebhookEnvelope bodies', () => {
    expect(doc.defaultContentType).toBe('application/json');
    for (const [name, m] of messages) {
      expect(m.contentType, name).toBe('application/json');
      expect(m.payload.allOf[0].title, name).toBe('WebhookEnvelope');
    }
  });
});

describe('seed 6.1.5, 6.3, 6.1.6: event catalog', () => {
  it.each(SEED_FAMILIES)('family %s has at least one event', (family) => {
    expect(messages.filter(([, m]) => m['x-event-family'] === family).length).toBeGreaterThan(0);
  });

  it('gives every message a known family, a <family>.<action> name and matching consts', () => {
    for (const [name, m] of messages) {
      expect(SEED_FAMILIES, name).toContain(m['x-event-family']);
      expect(name).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
      expect(m.name).toBe(name);
      expect(m.payload.allOf[1].properties.event.const).toBe(name);
      expect(m.payload.allOf[1].properties.payload.properties.event.const).toBe(name);
      expect(typeof m['x-marketplace-scoped'], name).toBe('boolean');
      expect(['seed', 'inferred']).toContain(m['x-contract-source']);
    }
  });

  it.each<[string, string, string[]]>([
    ['order.created', 'orders', ['order_number', 'status']],
    ['product.created', 'catalog', ['id', 'sku', 'name']],
  ])('%s (seed 6.3) is in family %s with required properties %j', (name, family, required) => {
    const m = message(name);
    expect(m['x-contract-source']).toBe('seed');
    expect(m['x-event-family']).toBe(family);
    const props = shape(propertiesSchema(m));
    for (const r of required) expect(props.required.has(r), r).toBe(true);
  });

  it('order.created properties are the REST Order (reused, seed 6.1.6)', () => {
    expect(propertiesSchema(message('order.created')).title).toBe('Order');
  });

  it('product.created is emitted when POST /catalog/products is called, with the REST Product', () => {
    expect(message('product.created').description).toContain('`POST /catalog/products`');
    expect(propertiesSchema(message('product.created')).allOf[0].title).toBe('Product');
  });

  it.each(['seller.order.', 'seller.shipment.'])('%s* events exist, carry seller_id and are unscoped (seed 6.3, 6.4)', (prefix) => {
    const found = messages.filter(([n]) => n.startsWith(prefix));
    expect(found.length).toBeGreaterThan(0);
    for (const [name, m] of found) {
      // The seed names the wildcard and seller_id; the actions and the payload model are designed.
      expect(m['x-contract-source'], name).toBe('inferred');
      expect(m['x-event-family'], name).toBe('marketplace');
      expect(m['x-marketplace-scoped'], name).toBe(false);
      const props = shape(propertiesSchema(m));
      expect(props.required.has('seller_id'), name).toBe(true);
      expect(typesOf(props.properties.seller_id)).toEqual(['string']);
      expect(props.properties.seller_id['x-contract-source'], `${name} seller_id`).toBe('seed');
    }
  });

  it('*.deleted events carry the tombstone (seed 6.1.6)', () => {
    const deleted = messages.filter(([n]) => n.endsWith('.deleted'));
    expect(deleted.length).toBeGreaterThan(0);
    for (const [name, m] of deleted) expect(propertiesSchema(m).title, name).toBe('DeletedResourceTombstonePayload');
  });

  it('every inferred event is marked inferred; only the seed-named events are seed', () => {
    // seller.order.* / seller.shipment.* are seed wildcards: their concrete actions are designed.
    const seedNamed = (n: string) => n === 'order.created' || n === 'product.created';
    for (const [name, m] of messages) expect(m['x-contract-source'], name).toBe(seedNamed(name) ? 'seed' : 'inferred');
  });
});

describe('seed 6.4: marketplace-scoped subscriptions', () => {
  const scoped = messages.filter(([, m]) => m['x-marketplace-scoped']);

  it('names the field and the MS: prefix in the rules', () => {
    expect(rules.marketplaceScope.field).toBe('payload.properties.marketplace_listing');
    expect(rules.marketplaceScope.matchKey).toBe('marketplace_id');
    expect(rules.marketplaceScope.shipmentIdPrefix).toBe('MS:');
  });

  it('covers listings, inventory, warehouses, shipment copies and seller invoices', () => {
    const names = scoped.map(([n]) => n);
    for (const needed of [/^marketplace\.listing\./, /^inventory\./, /^warehouse\./, /^shipment\./, /^invoice\./]) {
      expect(names.some((n) => needed.test(n)), String(needed)).toBe(true);
    }
  });

  it('gives every scoped event a marketplace_listing[] of objects with marketplace_id', () => {
    for (const [name, m] of scoped) {
      const listing = shape(propertiesSchema(m)).properties.marketplace_listing;
      expect(listing, name).toBeDefined();
      const array = listing.type ? listing : listing.allOf[0];
      expect(array.type, name).toBe('array');
      expect(array.items.required, name).toContain('marketplace_id');
    }
  });

  it('shows a shipment copy with an MS: id in the examples', () => {
    const ids = messages.filter(([n]) => n.startsWith('shipment.')).map(([, m]) => example(m).payload.payload.properties.id);
    expect(ids.some((id: string) => id.startsWith('MS:'))).toBe(true);
  });

  it('seller invoices (seller_id) can carry marketplace_listing', () => {
    const props = shape(propertiesSchema(message('invoice.created'))).properties;
    expect(props.seller_id).toBeDefined();
    expect(props.marketplace_listing).toBeDefined();
  });
});

describe('examples', () => {
  const secret: string = doc['x-example-signing-secret'];
  it.each(messages.map(([n, m]) => [n, m] as const))('%s has a named example that validates, with ids and a real signature', (name, m) => {
    const ex = example(m);
    expect(ex.name).toMatch(/^[A-Z][A-Za-z]+$/);
    const body = validator(m.payload);
    expect(body(ex.payload) ? [] : body.errors).toEqual([]);
    const headers = validator(m.headers);
    expect(headers(ex.headers) ? [] : headers.errors).toEqual([]);
    expect(ex.headers['X-SVC-Event']).toBe(ex.payload.event);
    expect(ex.headers['X-SVC-Event-ID']).toBe(ex.payload.event_id);
    expect(ex.headers['X-SVC-Delivery-ID']).toBe(ex.payload.delivery_id);
    expect(ex.payload.payload.event_id).toBe(ex.payload.event_id);
    const expected = `sha256=${createHmac('sha256', secret).update(JSON.stringify(ex.payload)).digest('hex')}`;
    expect(ex.headers['X-SVC-Signature']).toBe(expected);
  });

  it('rejects an envelope whose payload.event differs from the message', () => {
    const m = message('order.created');
    const copy = structuredClone(example(m).payload);
    copy.payload.event = 'order.updated';
    expect(validator(m.payload)(copy)).toBe(false);
  });
});
