// The request log can be shared: credentials never appear in it, whether named by the query parameter,
// recognisable by their shape, or known to the workbench (its API key and admin token).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbench } from '../../workbench/index.js';
import { startWorkbench } from '../helpers/adapter.js';
import { redactUrl } from '../../workbench/http/log.js';

const API_KEY = 'sfk-known-api-key-1234';
const ADMIN_TOKEN = 'admin-known-token-5678';
let bench: Workbench;
const lines: string[] = [];
beforeAll(async () => {
  bench = await startWorkbench({ port: 0, apiKeys: [API_KEY], logSink: (text) => lines.push(...text.split('\n').filter(Boolean)), webhooks: { adminTokens: [ADMIN_TOKEN], timeScale: 0.01 } });
});
afterAll(async () => {
  await bench?.close();
});

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXZhbHVl';
describe('redactUrl', () => {
  it.each([
    ['/x?jwt=abc123', 'abc123'],
    ['/x?bearer=abc123', 'abc123'],
    ['/x?id_token=abc123', 'abc123'],
    ['/x?access_token=abc123', 'abc123'],
    ['/x?code=4242', '4242'],
    ['/x?otp=123456', '123456'],
    ['/x?apiKey=abc123', 'abc123'],
    [`/x?q=${JWT}`, JWT],
    [`/x/${JWT}/y`, JWT],
    ['/x?note=whsec_abcdefghijklmnop', 'whsec_abcdefghijklmnop'],
    ['/x?t=mock_abcdefghijklmnopqrstuvwxyz', 'mock_abcdefghijklmnopqrstuvwxyz'],
  ])('%s hides %s', (url, secret) => {
    expect(redactUrl(url)).not.toContain(secret);
    expect(redactUrl(url)).toContain('[redacted]');
  });

  it('keeps ordinary parameters readable', () => {
    expect(redactUrl('/catalog/products?page=2&limit=20&category_slug=lipsticks')).toBe('/catalog/products?page=2&limit=20&category_slug=lipsticks');
  });

  it('hides known secrets anywhere, percent-encoded too', () => {
    expect(redactUrl('/a/my+key%2Fx?x=my+key%2Fx', ['my key/x'])).not.toContain('key');
  });
});

it('the live log of a workbench never shows its API key, admin token or a query credential', async () => {
  const base = `${bench.url}/api/v1/log-store`;
  // The storefront is the sandbox (strict): the token it issues opens it, and is itself a secret of the log.
  const anon = await fetch(`${base}/storefront/auth/anonymous?key_hint=${API_KEY}`, { method: 'POST', headers: { 'x-api-key': API_KEY } });
  const token = ((await anon.json()) as { content: { access_token: string } }).content.access_token;
  await fetch(`${base}/storefront/catalog/products?page=1&jwt=${JWT}`, { headers: { authorization: `Bearer ${token}` } });
  await fetch(`${base}/storefront/common/countries?t=${token}`, { headers: { authorization: `Bearer ${token}` } });
  await fetch(`${base}/admin/webhooks?token=${ADMIN_TOKEN}&page=1`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  await fetch(`${base}/admin/webhooks/${ADMIN_TOKEN}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  // The log is written once each answer is finished: wait for the five requests' lines, not a time.
  await expect.poll(() => lines.filter((l) => / \/api\/v1\/log-store\//.test(l)).length).toBeGreaterThanOrEqual(5);
  const log = lines.join('\n');
  expect(log).toMatch(/GET \/api\/v1\/log-store\/storefront\/catalog\/products\?page=1&jwt=\[redacted\] 200/);
  expect(log).toMatch(/GET \/api\/v1\/log-store\/storefront\/common\/countries\?t=\[redacted\] 200/);
  for (const secret of [API_KEY, ADMIN_TOKEN, JWT, token]) expect(log).not.toContain(secret);
});
