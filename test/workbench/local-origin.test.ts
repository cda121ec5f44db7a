// The control surfaces (/__simulator, the Admin API) answer only callers on this machine; the
// storefront API stays open to every origin for front-end development.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkbench, type Bench } from '../simulator/helpers.js';

let bench: Bench;
beforeAll(async () => {
  bench = await startWorkbench();
});
afterAll(async () => {
  await bench?.close();
});

async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await request(`${bench.server.url}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const EVENT = JSON.stringify({ event: 'order.created' });
const jsonHeaders = { 'content-type': 'application/json' };

describe.each([
  ['POST', '/__simulator/stores/s1/events', EVENT],
  ['GET', '/__simulator', undefined],
  ['POST', '/api/v1/s1/admin/webhooks', JSON.stringify({ url: 'http://127.0.0.1:9/h', events: ['order.created'] })],
])('control route %s %s', (method, path, body) => {
  const admin = { authorization: 'Bearer any-admin-token' };

  it.each([['https://evil.example'], ['http://127.0.0.1.evil.example:4010'], ['null']])('refuses a page from %s with a 403 envelope, no CORS grant', async (origin) => {
    const reply = await send(method, path, { ...jsonHeaders, ...admin, origin }, body);
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ success: false, content: { error: { code: 'forbidden' } } });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses the preflight of a foreign page', async () => {
    const reply = await send('OPTIONS', path, { origin: 'https://evil.example', 'access-control-request-method': method, 'access-control-request-headers': 'content-type' });
    expect(reply.status).toBe(403);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a rebound host name', async () => {
    const reply = await send(method, path, { ...jsonHeaders, ...admin, host: 'attacker.example:4010' }, body);
    expect(reply.status).toBe(403);
    expect(reply.json.message).toMatch(/Host "attacker\.example:4010" is refused/);
  });

  it('serves a page on localhost, granting its origin only', async () => {
    const reply = await send(method, path, { ...jsonHeaders, ...admin, origin: 'http://localhost:5173' }, body);
    expect(reply.status).toBeLessThan(300);
    expect(reply.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('serves tools that send no Origin (curl, the CLI)', async () => {
    const reply = await send(method, path, { ...jsonHeaders, ...admin }, body);
    expect(reply.status).toBeLessThan(300);
  });
});

it('the storefront API stays open to every origin', async () => {
  const preflight = await send('OPTIONS', '/api/v1/s1/storefront/common/countries', { origin: 'https://shop.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' });
  expect(preflight.status).toBe(204);
  expect(preflight.headers['access-control-allow-origin']).toBe('*');
});
