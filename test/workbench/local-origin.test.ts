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
])('control route %s %s', (method, template, body) => {
  // Each call in a store of its own: a store takes at most 5 webhooks.
  let n = 0;
  const at = () => template.replace('/s1/', `/s1-${++n}/`);
  const admin = { authorization: 'Bearer any-admin-token' };

  it.each([['https://evil.example'], ['http://127.0.0.1.evil.example:4010'], ['null']])('refuses a page from %s with a 403 envelope, no CORS grant', async (origin) => {
    const reply = await send(method, at(), { ...jsonHeaders, ...admin, origin }, body);
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ success: false, content: { error: { code: 'forbidden' } } });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses the preflight of a foreign page', async () => {
    const reply = await send('OPTIONS', at(), { origin: 'https://evil.example', 'access-control-request-method': method, 'access-control-request-headers': 'content-type' });
    expect(reply.status).toBe(403);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a rebound host name', async () => {
    const reply = await send(method, at(), { ...jsonHeaders, ...admin, host: 'attacker.example:4010' }, body);
    expect(reply.status).toBe(403);
    expect(reply.json.message).toMatch(/Host "attacker\.example:4010" is refused/);
  });

  it('serves a page on localhost, granting its origin only', async () => {
    const reply = await send(method, at(), { ...jsonHeaders, ...admin, origin: 'http://localhost:5173' }, body);
    expect(reply.status).toBeLessThan(300);
    expect(reply.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('refuses a cross-site request without an Origin (a link, image or script on another site) with a 403 envelope', async () => {
    const reply = await send(method, at(), { ...jsonHeaders, ...admin, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }, body);
    expect(reply.status).toBe(403);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.json).toMatchObject({ success: false, content: { error: { code: 'forbidden', details: [] } } });
    expect(reply.json.message).toMatch(/Sec-Fetch-Site: cross-site/);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a cross-site preflight without a loopback Origin', async () => {
    const reply = await send('OPTIONS', at(), { 'sec-fetch-site': 'cross-site', 'access-control-request-method': method });
    expect(reply.status).toBe(403);
  });

  it('serves a cross-site page on localhost (a dev server on another host name of this machine)', async () => {
    const reply = await send(method, at(), { ...jsonHeaders, ...admin, origin: 'http://localhost:5173', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }, body);
    expect(reply.status).toBeLessThan(300);
    expect(reply.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it.each([['same-site'], ['same-origin'], ['none']])('serves Sec-Fetch-Site: %s (this machine, the address bar)', async (site) => {
    const reply = await send(method, at(), { ...jsonHeaders, ...admin, 'sec-fetch-site': site }, body);
    expect(reply.status).toBeLessThan(300);
  });

  it('serves tools that send no Origin (curl, the CLI)', async () => {
    const reply = await send(method, at(), { ...jsonHeaders, ...admin }, body);
    expect(reply.status).toBeLessThan(300);
  });
});

it('the storefront API stays open to cross-site pages', async () => {
  const reply = await send('GET', '/api/v1/s1/storefront/common/countries', { 'sec-fetch-site': 'cross-site', authorization: 'Bearer any-token' });
  expect(reply.status).not.toBe(403);
});

it('the storefront API stays open to every origin', async () => {
  const preflight = await send('OPTIONS', '/api/v1/s1/storefront/common/countries', { origin: 'https://shop.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' });
  expect(preflight.status).toBe(204);
  expect(preflight.headers['access-control-allow-origin']).toBe('*');
});
