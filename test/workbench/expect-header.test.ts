// `Expect` headers: 100-continue works as HTTP/1.1 says; any other expectation gets a 417 with the
// contract's envelope, never node's bare answer.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorkbench, sandboxApiKey, type Workbench } from '../../workbench/index.js';
import { rawExchange } from '../mock/helpers.js';

let bench: Workbench;
beforeAll(async () => {
  bench = await createWorkbench({ port: 0, quiet: true, webhooks: { timeScale: 0.01 } });
});
afterAll(async () => {
  await bench?.close();
});

it.each(['200-ok', 'something', 'x=1'])('Expect: %s is a 417 envelope', async (value) => {
  const raw = await rawExchange(bench.port, `GET /api/v1/s/storefront/common/countries HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\nExpect: ${value}\r\n\r\n`);
  expect(raw).toMatch(/^HTTP\/1\.1 417 /);
  const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
  expect(body).toMatchObject({ success: false, content: { error: { code: 'expectation_failed', details: [{ location: 'header', name: 'Expect' }] } } });
});

it('Expect: 100-continue gets 100 Continue, then the answer', async () => {
  // The workbench's storefront is the sandbox: a token it issued and a cart of its world.
  const anon = await fetch(`${bench.url}/api/v1/s/storefront/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': sandboxApiKey('s') } });
  const token = ((await anon.json()) as { content: { access_token: string } }).content.access_token;
  const body = JSON.stringify({ delivery_pincode: '560038', cart_id: 'crt_8N2F6Q' });
  const raw = await rawExchange(
    bench.port,
    `POST /api/v1/s/storefront/shipping/fulfillment-options HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n${body}`,
  );
  expect(raw).toMatch(/^HTTP\/1\.1 100 Continue/);
  expect(raw).toMatch(/HTTP\/1\.1 200 /);
});
