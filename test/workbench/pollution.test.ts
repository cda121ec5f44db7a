// Prototype pollution matrix: `__proto__`, `constructor` and `prototype` in every user-supplied path or
// key the workbench walks. Each must be refused with an envelope or stored as plain data; afterwards
// the process's prototypes are intact and a malformed request still gets its 400, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, startWorkbench, type Bench } from '../simulator/helpers.js';

let bench: Bench;
beforeAll(async () => {
  bench = await startWorkbench();
});
afterAll(async () => {
  await bench?.close();
});

const simulator = () => `${bench.server.url}/__simulator/stores/pollution`;
const admin = () => `${bench.server.url}/api/v1/pollution/admin`;
const KEYS = ['__proto__', 'constructor', 'prototype'];
const snapshot = () => ({ toString: Object.prototype.toString, hasOwnProperty: Object.prototype.hasOwnProperty, keys: Object.getOwnPropertyNames(Object.prototype).sort() });
const before = snapshot();

function expectIntact(): void {
  expect(snapshot()).toEqual(before);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe.each(KEYS)('%s', (key) => {
  it.each([
    [`${key}.toString`],
    [`${key}.hasOwnProperty`],
    [`order_number.${key}.toString`],
    [`${key}`],
    [`items.0.${key}`],
  ])('unset path %s is refused with a 400 envelope', async (path) => {
    const reply = await call(simulator(), 'POST', '/events', { event: 'order.created', unset: [path] });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ success: false, content: { error: { code: 'invalid_body' } } });
    expectIntact();
  });

  it('a properties key is refused with a 400 envelope, at the top and nested', async () => {
    for (const properties of [JSON.parse(`{"${key}": {"polluted": true}}`), JSON.parse(`{"items": {"0": {"${key}": {"polluted": true}}}}`)]) {
      const reply = await call(simulator(), 'POST', '/events', { event: 'order.created', properties });
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ success: false });
    }
    expectIntact();
  });

  it('a custom header named after it is refused or kept as data, never as a prototype', async () => {
    const body = `{"url":"http://127.0.0.1:9/hook","events":["order.created"],"custom_headers":{"${key}":{"polluted":true}}}`;
    const reply = await call(admin(), 'POST', '/webhooks', body);
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(reply.json).toMatchObject({ success: false });
    expectIntact();
  });

  it('a JSON body key on a storefront operation never reaches a prototype', async () => {
    const storefront = `${bench.server.url}/api/v1/pollution/storefront`;
    const body = `{"business":{"name":"A"},"address":{"first_name":"A"},"${key}":{"polluted":true}}`;
    const reply = await call(storefront, 'POST', '/customers', body, { authorization: 'Bearer any-token' });
    expect(reply.status).toBeLessThan(500);
    expectIntact();
  });
});

it('after the matrix, a malformed Admin request still gets its 400 envelope (no 500)', async () => {
  const reply = await call(admin(), 'POST', '/webhooks', { url: {} }, ADMIN);
  expect(reply.status).toBe(400);
  expect(reply.json).toMatchObject({ success: false });
  expectIntact();
});
