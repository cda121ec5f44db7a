// Issue #25, finding 1: a body with a member nested thousands of levels deep once overflowed the call
// stack of the unsafe-key walk (500 `internal_error`). Every route that reads JSON now refuses JSON nested
// past MAX_JSON_DEPTH (register SF-038) with 400 `invalid_body` in the contract's envelope naming the limit,
// never a 5XX; JSON at the limit is still read. Against the real workbench over HTTP.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse } from 'storefront-contract/validators';
import { MAX_JSON_DEPTH, findUnsafeKey, inspectUserJson } from '../../workbench/http/object-paths.js';
import { setPath } from '../../workbench/simulator/cli.js';
import type { Workbench } from '../../workbench/index.js';
import { KEY, anonymous, backOffice, http, startSandbox, storefront } from './helpers.js';

let wb: Workbench;
let auth: Record<string, string>;
let world: any;

beforeAll(async () => {
  wb = await startSandbox();
  ({ auth } = await anonymous(wb));
  world = (await http(`${backOffice(wb)}/world`)).json.content;
});
afterAll(async () => {
  await wb?.close();
});

/** `{"a":{"a":...{}}}` with `levels` objects, as text (JSON.stringify would recurse). */
const nested = (levels: number, leaf = '{}') => `${'{"a":'.repeat(levels - 1)}${leaf}${'}'.repeat(levels - 1)}`;
/** A body whose `extra` member holds `levels` levels of nesting, spliced into a valid body. */
const withExtra = (body: object, levels: number) => `${JSON.stringify(body).slice(0, -1)}${Object.keys(body).length ? ',' : ''}"extra":${nested(levels)}}`;
const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

const customer = {
  address: { first_name: 'Deep', last_name: 'Nest', phone: '9800000000', country_code: '+91', email: 'deep@example.com' },
  business: { business_type: 'retail', name: 'Deep Nest', pan_number: 'ABCDE1234F', gstin: '22ABCDE1234F1Z5' },
};

async function send(url: string, method: string, text: string, headers: Record<string, string> = {}) {
  return http(url, method, { body: text, headers: { 'content-type': 'application/json', ...headers } });
}

function expectTooDeep(r: { status: number; json: any; text: string }, what: string) {
  expect(r.status, `${what}: ${r.text.slice(0, 300)}`).toBe(400);
  expect(r.json).toMatchObject({ success: false, content: { error: { code: 'invalid_body' } } });
  expect(r.json.message).toContain(`${MAX_JSON_DEPTH} levels`);
  expect(r.json.content.error.details[0]).toMatchObject({ location: 'body' });
}

describe('finding 1: deep nesting is a 400 invalid_body, never a 500', () => {
  // 150,000 levels: just under the 1 MiB body limit.
  const LEVELS = [MAX_JSON_DEPTH + 1, 8_000, 150_000];

  it.each(LEVELS)('POST /customers with an extra member %i levels deep', async (levels) => {
    const r = await send(`${storefront(wb)}/customers`, 'POST', withExtra(customer, levels), auth);
    expectTooDeep(r, 'createCustomer');
    expect(validateResponse('storefront', 'createCustomer', r.status, r.json)).toEqual({ valid: true });
  });

  it.each(LEVELS)('POST /shipping/fulfillment-options with an extra member %i levels deep', async (levels) => {
    const cart = world.carts.find((c: any) => c.items > 0);
    const r = await send(`${storefront(wb)}/shipping/fulfillment-options`, 'POST', withExtra({ cart_id: cart.id, delivery_pincode: '560001' }, levels), auth);
    expectTooDeep(r, 'getFulfillmentOptions');
    expect(validateResponse('storefront', 'getFulfillmentOptions', r.status, r.json)).toEqual({ valid: true });
  });

  it('POST /pos/auth/login/phone and the Admin API with nested arrays', async () => {
    const login = await send(`${storefront(wb)}/pos/auth/login/phone`, 'POST', `{"phone":"9800000000","country_code":"+91","extra":${arrays(8_000)}}`, KEY);
    expectTooDeep(login, 'startPosPhoneLogin');
    const admin = await send(`${wb.url}/api/v1/demo-store/admin/webhooks`, 'POST', `{"url":"http://127.0.0.1:9/x","events":["order.created"],"extra":${arrays(8_000)}}`, { authorization: 'Bearer admin-token' });
    expect(admin.status, admin.text.slice(0, 200)).toBe(400);
    expect(admin.json.content.error.code).toBe('invalid_body');
  });

  it.each([
    ['POST', '/orders'],
    ['POST', '/orders/SO-0-000001/status'],
    ['POST', '/products'],
    ['PATCH', '/products/any'],
    ['POST', '/inventory'],
    ['POST', '/events'],
  ])('back office %s %s with an extra member 8,000 levels deep', async (method, path) => {
    const r = await send(`${backOffice(wb)}${path}`, method, withExtra({}, 8_000));
    expectTooDeep(r, `${method} ${path}`);
    expect(r.headers['x-simulator']).toBe('outside-contract');
  });

  it('POST /__simulator/.../events: deep properties are refused; at the limit they are merged', async () => {
    const deep = await send(`${backOffice(wb)}/events`, 'POST', `{"event":"order.created","properties":{"extra":${nested(8_000)}}}`);
    expectTooDeep(deep, 'events');
    // The body at the limit: {"event", "properties": {"extra": ...}} reaches exactly MAX_JSON_DEPTH.
    const atLimit = await send(`${backOffice(wb)}/events`, 'POST', `{"event":"order.created","properties":{"extra":${nested(MAX_JSON_DEPTH - 2)}}}`);
    expect(atLimit.status, atLimit.text.slice(0, 300)).toBeLessThan(500);
    expect(atLimit.json.content?.error?.message ?? atLimit.json.message).not.toContain('levels deep');
  });

  it('the server still answers afterwards', async () => {
    const r = await http(`${backOffice(wb)}/world`);
    expect(r.status).toBe(200);
  });
});

describe('finding 1: the walks are iterative', () => {
  it('the limit is the one the spec states (x-max-json-depth, register SF-038)', () => {
    for (const file of ['customers', 'shipping_fulfillment-options', 'pos_auth_login_phone']) {
      const doc = parse(readFileSync(path.join(import.meta.dirname, '../../spec/openapi/paths/storefront', `${file}.yaml`), 'utf8'));
      expect(doc.post.requestBody['x-max-json-depth'], file).toBe(MAX_JSON_DEPTH);
    }
  });

  it('inspectUserJson and findUnsafeKey walk 1,000,000 levels without recursion', () => {
    let deep: any = {};
    for (let i = 0; i < 1_000_000; i++) deep = { a: deep };
    expect(inspectUserJson(deep)).toMatchObject({ kind: 'too-deep' });
    expect(findUnsafeKey(deep)).toBeUndefined();
    let poisoned: any = JSON.parse('{"__proto__": 1}');
    for (let i = 0; i < 100_000; i++) poisoned = [poisoned];
    expect(findUnsafeKey(poisoned)).toBe(`${'0.'.repeat(100_000)}__proto__`);
  });

  it('the first problem in document order, as the recursive walk found it', () => {
    expect(findUnsafeKey(JSON.parse('{"a":{"b":1,"constructor":2},"prototype":3}'))).toBe('a.constructor');
    expect(inspectUserJson(JSON.parse(nested(MAX_JSON_DEPTH)))).toBeUndefined();
    expect(inspectUserJson(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toEqual({ kind: 'too-deep', path: Array(MAX_JSON_DEPTH).fill('a').join('.').slice(0, 117) + '...' });
  });

  it('webhooks trigger --set refuses a value nested too deep before sending it', () => {
    expect(() => setPath({}, `a.b=${nested(MAX_JSON_DEPTH)}`)).toThrow(/nested too deep/);
    const ok: Record<string, unknown> = {};
    setPath(ok, `a=${nested(MAX_JSON_DEPTH - 3)}`);
    expect(ok.a).toBeTypeOf('object');
  });
});
