// `npm run record`: a recording proxy on loopback writing HAR 1.2 with API keys, bearer tokens,
// access/refresh tokens and OTPs redacted, the same secret always by the same marker.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import type { Har } from '../../conformance/rest/har.js';
import { startMock, TEST_API_KEY } from './helpers.js';

let mock: MockServer;
let dir: string;
let child: ChildProcess | undefined;
/** Every child a test starts, stopped in afterAll whatever the test's outcome. */
const children: ChildProcess[] = [];
beforeAll(async () => {
  mock = await startMock();
  dir = mkdtempSync(path.join(os.tmpdir(), 'record-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

function startRecorder(out: string): Promise<string> {
  child = spawn(process.execPath, ['--import', 'tsx', 'cli/storefront-contract.ts', 'record', '--upstream', mock.url, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let text = '';
    child!.stdout!.on('data', (c) => {
      text += c;
      const m = /proxy on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (m) resolve(m[1]);
    });
    child!.once('exit', (code) => reject(new Error(`record exited ${code}`)));
  });
}

describe('npm run record', () => {
  it('writes a redacted HAR 1.2 of the traffic it forwards', async () => {
    const out = path.join(dir, 'session.har');
    const proxy = await startRecorder(out);
    const base = `${proxy}/api/v1/demo-store/storefront`;
    const anon = await request(`${base}/auth/anonymous`, { method: 'POST', headers: { 'x-api-key': TEST_API_KEY } });
    const anonBody = (await anon.body.json()) as any;
    const token: string = anonBody.content.access_token;
    expect(anon.statusCode).toBe(200);
    const list = await request(`${base}/catalog/products?limit=2`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.statusCode).toBe(200);
    await list.body.dump();
    const login = await request(`${base}/pos/auth/login/phone?debug_mode=true`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json', prefer: 'example=StartPosPhoneLoginOkDebugMode' },
      body: JSON.stringify({ location_id: 'loc_1', phone: '9876543210', country_code: '+91' }),
    });
    const otp: string = ((await login.body.json()) as any).content.otp;
    expect(otp).toMatch(/^\d{4,8}$/);

    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);

    const text = readFileSync(out, 'utf8');
    const har: Har = JSON.parse(text);
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => e.response.status)).toEqual([200, 200, 200]);
    for (const secret of [TEST_API_KEY, token, anonBody.content.refresh_token, otp]) expect(text).not.toContain(secret);
    const [first, second, third] = har.log.entries;
    const issued = JSON.parse(first.response.content.text!).content.access_token;
    expect(issued).toMatch(/^REDACTED_access_token_\d+$/);
    expect(second.request.headers.find((h) => h.name.toLowerCase() === 'authorization')?.value).toBe(`Bearer ${issued}`);
    expect(first.request.headers.find((h) => h.name.toLowerCase() === 'x-api-key')?.value).toBe('REDACTED_api_key_1');
    expect(third.request.headers.find((h) => h.name.toLowerCase() === 'x-api-key')?.value).toBe('REDACTED_api_key_1');
    expect(JSON.parse(third.response.content.text!).content.otp).toMatch(/^REDACTED_otp_\d+$/);
  });

  it('explains a missing --upstream in one line, exit 2', async () => {
    const r = spawn(process.execPath, ['--import', 'tsx', 'cli/storefront-contract.ts', 'record', '--out', path.join(dir, 'x.har')], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(r);
    let err = '';
    r.stderr!.on('data', (c) => (err += c));
    const code = await new Promise((resolve) => r.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toMatch(/^storefront-contract record: --upstream is required: the server to record.*; see storefront-contract record --help\n$/);
    expect(err).not.toMatch(/\n\s+at /);
  });
});
