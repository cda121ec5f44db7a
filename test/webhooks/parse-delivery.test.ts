// issue 38: parseDelivery and getHeader field by field. The delivery vectors (vectors.test.ts) check each
// rejection's status and reason; these check what a receiver also reads: the exact message, the named
// header, the schema errors, `known` and `secretIndex`, and both sides of the size bound. A validator that
// accepts everything isolates the checks that come after the schema (envelope and header agreement).
import { describe, expect, it } from 'vitest';
import { getHeader, HEADER } from '../../src/webhooks/headers.js';
import { parseDelivery } from '../../src/webhooks/parse-delivery.js';
import { signPayload } from '../../src/webhooks/verify.js';
import { buildDelivery, headersFor, PREVIOUS_SECRET, SECRET, type Delivery } from '../../conformance/vectors/webhook-fixtures.js';

const acceptAll = (body: unknown) => ({ valid: true as const, event: String((body as { event?: unknown })?.event) });

/** A delivery whose body was changed after building, re-signed, headers from the changed body. */
function changed(mutate: (body: Record<string, any>) => void): Delivery {
  const d = buildDelivery();
  const body = structuredClone(d.body) as Record<string, any>;
  mutate(body);
  const raw = Buffer.from(JSON.stringify(body));
  return { body: body as Delivery['body'], raw, headers: headersFor(body as Delivery['body'], raw, SECRET) };
}

/** Raw bytes signed with SECRET, with the identity headers of a built delivery. */
function signed(raw: Buffer | string): { rawBody: Buffer | string; headers: Record<string, string> } {
  const d = buildDelivery();
  return { rawBody: raw, headers: { ...d.headers, 'x-svc-signature': signPayload(raw, SECRET) } };
}

describe('issue 38: parseDelivery accepts with every field set', () => {
  it('a valid delivery: the event, known, the matching secret', () => {
    const d = buildDelivery();
    expect(parseDelivery({ rawBody: d.raw, headers: d.headers, secrets: [SECRET] })).toStrictEqual({ ok: true, status: 200, event: d.body, known: true, secretIndex: 0 });
    const rotated = buildDelivery({ secret: PREVIOUS_SECRET });
    expect(parseDelivery({ rawBody: rotated.raw, headers: rotated.headers, secrets: [SECRET, PREVIOUS_SECRET] })).toMatchObject({ ok: true, secretIndex: 1, known: true });
  });

  it('Fetch Headers work as the header source', () => {
    const d = buildDelivery();
    expect(parseDelivery({ rawBody: d.raw, headers: new Headers(d.headers), secrets: SECRET })).toMatchObject({ ok: true, status: 200 });
  });

  it('an event outside the catalog: acknowledged on its envelope (known: false) by default and with "acknowledge", refused with "reject"', () => {
    const d = changed((b) => {
      b.event = b.payload.event = 'order.archived';
      b.payload.properties = { anything: true };
    });
    for (const unknownEvents of [undefined, 'acknowledge'] as const) {
      expect(parseDelivery({ rawBody: d.raw, headers: d.headers, secrets: [SECRET], unknownEvents })).toStrictEqual({ ok: true, status: 200, event: d.body, known: false, secretIndex: 0 });
    }
    expect(parseDelivery({ rawBody: d.raw, headers: d.headers, secrets: [SECRET], unknownEvents: 'reject' })).toMatchObject({ ok: false, status: 400, reason: 'schema' });
    // The envelope is still checked for an unknown name.
    const broken = changed((b) => {
      b.event = b.payload.event = 'order.archived';
      delete b.delivery_id;
    });
    expect(parseDelivery({ rawBody: broken.raw, headers: broken.headers, secrets: [SECRET] })).toMatchObject({ ok: false, status: 400, reason: 'schema' });
  });
});

describe('issue 38: parseDelivery size bound, both sides', () => {
  const d = buildDelivery();
  it('a body of exactly maxBodyBytes is read; one byte less allowed is 413 with the limit in the message', () => {
    expect(parseDelivery({ rawBody: d.raw, headers: d.headers, secrets: [SECRET], maxBodyBytes: d.raw.length })).toMatchObject({ ok: true, status: 200 });
    expect(parseDelivery({ rawBody: d.raw, headers: d.headers, secrets: [SECRET], maxBodyBytes: d.raw.length - 1 })).toStrictEqual({
      ok: false,
      status: 413,
      reason: 'too-large',
      message: `body is larger than ${d.raw.length - 1} bytes`,
    });
  });

  it('the size is checked before the signature (a forged oversized body costs no HMAC) and a parsed body is still not-raw-body', () => {
    const forged = { ...d.headers, 'x-svc-signature': `sha256=${'0'.repeat(64)}` };
    expect(parseDelivery({ rawBody: d.raw, headers: forged, secrets: [SECRET], maxBodyBytes: 10 })).toMatchObject({ status: 413, reason: 'too-large' });
    expect(parseDelivery({ rawBody: d.body, headers: d.headers, secrets: [SECRET], maxBodyBytes: 10 })).toMatchObject({ status: 401, reason: 'not-raw-body' });
  });
});

describe('issue 38: parseDelivery rejections say what is wrong', () => {
  const d = buildDelivery();
  const sig = (value: unknown) => ({ ...d.headers, 'x-svc-signature': value }) as Record<string, string>;

  it.each([
    ['missing', sig(''), [SECRET], d.raw, 'X-SVC-Signature header is missing or empty'],
    ['malformed', sig('sha256=abc'), [SECRET], d.raw, 'X-SVC-Signature must be `sha256=` followed by 64 lowercase hex digits, sent once'],
    ['mismatch', sig(`sha256=${'0'.repeat(64)}`), [SECRET], d.raw, 'X-SVC-Signature does not match the body for any configured secret'],
    [
      'not-raw-body',
      d.headers,
      [SECRET],
      d.body,
      "the body reached the receiver already parsed, so its signature cannot be checked: give the receiver the raw bytes (no JSON body parser on this route; with Express use express.raw({ type: 'application/json' }))",
    ],
    ['no-secrets', d.headers, [], d.raw, 'the receiver has no signing secret configured'],
  ] as const)('401 %s', (reason, headers, secrets, rawBody, message) => {
    expect(parseDelivery({ rawBody, headers, secrets: [...secrets] })).toStrictEqual({ ok: false, status: 401, reason, message });
  });

  it('400 invalid-utf8 for bytes, while a string body is already text', () => {
    const bad = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    expect(parseDelivery({ ...signed(bad), secrets: [SECRET] })).toStrictEqual({ ok: false, status: 400, reason: 'invalid-utf8', message: 'body is not valid UTF-8' });
    const d2 = buildDelivery();
    expect(parseDelivery({ rawBody: d2.raw.toString('utf8'), headers: d2.headers, secrets: [SECRET] })).toMatchObject({ ok: true });
  });

  it('400 invalid-json, also for a byte order mark (bytes or text) that a lenient decoder would drop', () => {
    const invalid = { ok: false, status: 400, reason: 'invalid-json', message: 'body is not valid JSON' };
    expect(parseDelivery({ ...signed('{"a":'), secrets: [SECRET] })).toStrictEqual(invalid);
    const bomBytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), d.raw]);
    expect(parseDelivery({ ...signed(bomBytes), headers: { ...d.headers, 'x-svc-signature': signPayload(bomBytes, SECRET) }, secrets: [SECRET] })).toStrictEqual(invalid);
  });

  it('400 schema with the validator\'s errors; a JSON null, a string or an array body is a schema failure, not a crash', () => {
    const noStore = changed((b) => delete b.payload.store_id);
    const result = parseDelivery({ rawBody: noStore.raw, headers: noStore.headers, secrets: [SECRET] });
    expect(result).toMatchObject({ ok: false, status: 400, reason: 'schema', message: 'body does not match the WebhookEnvelope schema or its event’s properties' });
    expect(result.ok === false && result.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining('payload') })]));
    for (const raw of ['null', '"order.created"', '[]', '42']) {
      let parsed: ReturnType<typeof parseDelivery> | undefined;
      expect(() => (parsed = parseDelivery({ ...signed(raw), secrets: [SECRET] })), raw).not.toThrow();
      expect(parsed, raw).toMatchObject({ ok: false, status: 400, reason: 'schema' });
    }
  });

  it('a validator given in the input is used, and one that throws is a schema failure', () => {
    const d2 = buildDelivery();
    const refuse = () => ({ valid: false as const, errors: [{ path: '/custom', message: 'refused by a custom rule' }] });
    expect(parseDelivery({ rawBody: d2.raw, headers: d2.headers, secrets: [SECRET], validate: refuse })).toStrictEqual({
      ok: false,
      status: 400,
      reason: 'schema',
      message: 'body does not match the WebhookEnvelope schema or its event’s properties',
      errors: [{ path: '/custom', message: 'refused by a custom rule' }],
    });
    const boom = () => {
      throw new Error('bug');
    };
    expect(parseDelivery({ rawBody: d2.raw, headers: d2.headers, secrets: [SECRET], validate: boom })).toMatchObject({ status: 400, reason: 'schema' });
  });

  it('400 envelope-mismatch when payload.event or payload.event_id differs, each on its own', () => {
    const mismatch = { ok: false, status: 400, reason: 'envelope-mismatch', message: 'payload.event and payload.event_id must equal the envelope’s event and event_id' };
    const eventOnly = changed((b) => (b.payload.event = 'order.updated'));
    expect(parseDelivery({ rawBody: eventOnly.raw, headers: eventOnly.headers, secrets: [SECRET], validate: acceptAll })).toStrictEqual(mismatch);
    const idOnly = changed((b) => (b.payload.event_id = 'evt_other'));
    expect(parseDelivery({ rawBody: idOnly.raw, headers: idOnly.headers, secrets: [SECRET], validate: acceptAll })).toStrictEqual(mismatch);
  });

  it.each([
    ['x-svc-event', 'X-SVC-Event', 'event'],
    ['x-svc-event-id', 'X-SVC-Event-ID', 'event_id'],
    ['x-svc-delivery-id', 'X-SVC-Delivery-ID', 'delivery_id'],
  ] as const)('400 header-mismatch naming %s, when it differs and when it is missing', (name, display, field) => {
    const d2 = buildDelivery();
    const differs = parseDelivery({ rawBody: d2.raw, headers: { ...d2.headers, [name]: 'forged' }, secrets: [SECRET] });
    expect(differs).toStrictEqual({ ok: false, status: 400, reason: 'header-mismatch', message: `${display} does not equal the signed body's ${field}`, header: display });
    const headers: Record<string, string> = { ...d2.headers };
    delete headers[name];
    expect(parseDelivery({ rawBody: d2.raw, headers, secrets: [SECRET] })).toStrictEqual({ ok: false, status: 400, reason: 'header-mismatch', message: `${display} is missing`, header: display });
  });
});

describe('issue 38: getHeader', () => {
  it('names the contract headers in lower case', () => {
    expect(HEADER).toStrictEqual({ event: 'x-svc-event', signature: 'x-svc-signature', eventId: 'x-svc-event-id', deliveryId: 'x-svc-delivery-id' });
  });

  it('reads node:http headers, hand-written mixed-case objects and Fetch Headers; absent is undefined, never null', () => {
    expect(getHeader({ 'x-svc-event': 'order.created' }, 'x-svc-event')).toBe('order.created');
    expect(getHeader({ 'X-SVC-Event': 'order.created' }, 'x-svc-event')).toBe('order.created');
    expect(getHeader({ 'x-other': '1', 'X-Svc-Event': ['a', 'b'] }, 'x-svc-event')).toEqual(['a', 'b']);
    expect(getHeader({ 'x-other': '1' }, 'x-svc-event')).toBeUndefined();
    expect(getHeader(new Headers({ 'X-SVC-Event': 'order.created' }), 'x-svc-event')).toBe('order.created');
    expect(getHeader(new Headers(), 'x-svc-event')).toBeUndefined();
  });

  it('an exact own name wins over a differently-cased one; an inherited property is no header', () => {
    expect(getHeader({ 'X-SVC-EVENT': 'upper', 'x-svc-event': 'exact' }, 'x-svc-event')).toBe('exact');
    expect(getHeader(Object.create({ 'x-svc-event': 'inherited' }) as Record<string, string>, 'x-svc-event')).toBeUndefined();
  });

  it('anything that is not a header object has no headers', () => {
    for (const source of [undefined, null, 'x-svc-event: a', 42]) expect(getHeader(source as never, 'x-svc-event')).toBeUndefined();
  });
});

describe('issue 38: parseDelivery, a string body is the text itself and only objects are header sources', () => {
  it('a string body is parsed as given (a lone surrogate in it is kept, not replaced as its UTF-8 bytes would be)', () => {
    const d = changed((b) => {
      b.event = b.payload.event = 'order.archived';
      b.payload.properties = { note: 'a\ud800b' };
    });
    const text = JSON.stringify(d.body).replace('\\ud800', '\ud800');
    expect(text).toContain('\ud800');
    const result = parseDelivery({ rawBody: text, headers: { ...d.headers, 'x-svc-signature': signPayload(text, SECRET) }, secrets: [SECRET] });
    expect(result).toMatchObject({ ok: true, known: false });
    expect(result.ok && (result.event as unknown as { payload: { properties: { note: string } } }).payload.properties.note).toBe('a\ud800b');
  });

  it('a body whose event is not a string fails the catalog validator (which says so), not the envelope-only path', () => {
    const d = changed((b) => (b.event = 42));
    const result = parseDelivery({ rawBody: d.raw, headers: { ...d.headers, 'x-svc-event': '42' }, secrets: [SECRET] });
    expect(result).toMatchObject({ ok: false, status: 400, reason: 'schema' });
    expect(result.ok === false && result.errors).toEqual([{ path: '/event', message: 'must be a string naming the event', expected: 'string', got: 'number' }]);
  });

  it('getHeader reads objects only: a function carrying a header-named property is no header source', () => {
    expect(getHeader(Object.assign(() => 1, { 'x-svc-event': 'a' }) as never, 'x-svc-event')).toBeUndefined();
  });
});
