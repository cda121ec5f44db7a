// /docs with precompressed assets (workbench/mock/static-docs.ts) over real HTTP, on a small site the docs
// build's own step precompresses (scripts/docs/precompress.ts): the coding Accept-Encoding prefers (its
// q-values, identity, *), the bytes decompressed equal to the file, Content-Length of what is sent, Vary,
// ETag and 304, Cache-Control by name, HEAD, a stale copy ignored, a 406 when nothing is acceptable.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressSite } from '../../scripts/docs/precompress.js';
import { acceptEncoding } from '../../workbench/mock/static-docs.js';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { startMock } from './helpers.js';

let server: MockServer;
let site: string;
const SCRIPT = 'assets/app.0123abcdef.js';
const files: Record<string, Buffer> = {};

beforeAll(async () => {
  site = await mkdtemp(path.join(os.tmpdir(), 'docs-compression-'));
  await mkdir(path.join(site, 'assets'));
  const js = Array.from({ length: 3000 }, (_, i) => `export function handler${i}(event) { return event.kind === 'order.created' ? ${i} : null; } // ₹ ${i}\n`).join('');
  Object.assign(files, {
    'index.html': Buffer.from(`<!doctype html><title>Docs</title>${'<p>The storefront contract, its references and guides.</p>\n'.repeat(40)}`),
    [SCRIPT]: Buffer.from(js),
    'assets/site.css': Buffer.from('body { font-family: sans-serif; margin: 0 auto; max-width: 60rem; }\n'.repeat(30)),
    'small.txt': Buffer.from('under a kilobyte'),
    'logo.png': randomBytes(4096),
  });
  for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(site, name), bytes);
  await precompressSite(site);
  server = await startMock({ docsRoot: site });
});
afterAll(async () => {
  await server?.close();
  await rm(site, { recursive: true, force: true });
});

async function get(urlPath: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') {
  const res = await request(`${server.url}/docs/${urlPath}`, { method, headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers as Record<string, string>, body };
}

/** Bytes compared as bytes (toEqual walks a Buffer element by element: seconds for 200 KB). */
const expectBytes = (actual: Buffer, expected: Buffer) => expect(actual.equals(expected), `${actual.length} bytes vs ${expected.length}`).toBe(true);
const decode = (coding: string | undefined, body: Buffer) => (coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body);

describe('the docs build precompresses', () => {
  it('writes .br and .gz beside each text file of 1 KB or more, none beside small or binary files', async () => {
    const names = (await readdir(site, { recursive: true, encoding: 'utf8' })).sort();
    for (const name of ['index.html', SCRIPT, 'assets/site.css']) expect(names).toEqual(expect.arrayContaining([`${name}.br`, `${name}.gz`]));
    expect(names.filter((n) => n.startsWith('small.txt.') || n.startsWith('logo.png.'))).toEqual([]);
    expectBytes(brotliDecompressSync(await readFile(path.join(site, `${SCRIPT}.br`))), files[SCRIPT]);
  });
});

describe('/docs negotiates Accept-Encoding', () => {
  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip;q=0.1', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['identity', undefined],
    ['gzip;q=0.5, identity', undefined],
    ['', undefined],
    ['deflate', undefined],
    ['br;q=not-a-number, gzip', 'gzip'],
  ])('Accept-Encoding "%s" gets %s; the body decompresses to the file and Content-Length is what was sent', async (accept, coding) => {
    for (const name of [SCRIPT, 'index.html', 'assets/site.css']) {
      const reply = await get(name, { 'accept-encoding': accept });
      expect(reply.status).toBe(200);
      expect(reply.headers['content-encoding']).toBe(coding);
      expect(reply.headers.vary).toBe('Accept-Encoding');
      expect(Number(reply.headers['content-length'])).toBe(reply.body.length);
      expectBytes(decode(coding, reply.body), files[name]);
      if (coding) expect(reply.body.length).toBeLessThan(files[name].length / 2);
    }
  });

  it('without Accept-Encoding sends the file as is', async () => {
    const reply = await get(SCRIPT);
    expect(reply.headers['content-encoding']).toBeUndefined();
    expectBytes(reply.body, files[SCRIPT]);
  });

  it('small and binary files are sent as they are (no Vary on a file that has one form)', async () => {
    const small = await get('small.txt', { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expectBytes(small.body, files['small.txt']);
    const png = await get('logo.png', { 'accept-encoding': 'br, gzip' });
    expect([png.headers['content-encoding'], png.headers.vary, png.headers['content-type']]).toEqual([undefined, undefined, 'image/png']);
    expectBytes(png.body, files['logo.png']);
  });

  it('refusing identity and every coding it has is a 406 envelope; refusing identity alone gets a compressed copy', async () => {
    const refused = await get(SCRIPT, { 'accept-encoding': 'identity;q=0, br;q=0, gzip;q=0' });
    expect(refused.status).toBe(406);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ success: false, content: { error: { code: 'not_acceptable' } } });
    const star = await get('small.txt', { 'accept-encoding': '*;q=0' });
    expect(star.status).toBe(406);
    const brOnly = await get(SCRIPT, { 'accept-encoding': 'identity;q=0, br' });
    expect(brOnly.headers['content-encoding']).toBe('br');
  });

  it('parses q-values as RFC 9110 says: named, then *, identity acceptable unless refused, last unless named', () => {
    const q = acceptEncoding('gzip;q=0.8, *;q=0.2, BR ; q=1.0');
    // Identity not named: acceptable, after every coding the request names.
    expect([q('br'), q('gzip'), q('zstd'), q('identity')]).toEqual([1, 0.8, 0.2, Number.MIN_VALUE]);
    expect(acceptEncoding('gzip')('identity')).toBeGreaterThan(0);
    expect(acceptEncoding('gzip;q=0.5, identity')('identity')).toBe(1);
    expect(acceptEncoding('*;q=0')('identity')).toBe(0);
    expect(acceptEncoding('*;q=0, identity;q=0.5')('identity')).toBe(0.5);
  });
});

describe('/docs caching headers', () => {
  it('an ETag per representation; If-None-Match with it is a 304 without a body, another representation\'s is a 200', async () => {
    const br = await get(SCRIPT, { 'accept-encoding': 'br' });
    const gz = await get(SCRIPT, { 'accept-encoding': 'gzip' });
    const plain = await get(SCRIPT);
    const tags = [br, gz, plain].map((r) => r.headers.etag);
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) expect(tag).toMatch(/^"[0-9a-f]+-[0-9a-f]+(-br|-gzip)?"$/);

    for (const ifNoneMatch of [br.headers.etag, `W/${br.headers.etag}`, `"nope", ${br.headers.etag}`, '*']) {
      const again = await get(SCRIPT, { 'accept-encoding': 'br', 'if-none-match': ifNoneMatch });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect([again.headers.etag, again.headers.vary, again.headers['cache-control']]).toEqual([br.headers.etag, 'Accept-Encoding', br.headers['cache-control']]);
    }
    const other = await get(SCRIPT, { 'accept-encoding': 'br', 'if-none-match': gz.headers.etag });
    expect(other.status).toBe(200);
    expectBytes(decode('br', other.body), files[SCRIPT]);
  });

  it('content-hashed names are immutable for a year; pages and other assets revalidate', async () => {
    expect((await get(SCRIPT)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const name of ['', 'index.html', 'assets/site.css', 'small.txt']) expect((await get(name)).headers['cache-control']).toBe('no-cache');
  });

  it('HEAD sends the headers GET sends, without a body', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const got = await get(SCRIPT, { 'accept-encoding': accept });
      const head = await get(SCRIPT, { 'accept-encoding': accept }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const h of ['content-length', 'content-encoding', 'content-type', 'etag', 'vary', 'cache-control']) expect(head.headers[h]).toBe(got.headers[h]);
    }
  });

  it('a compressed copy older than its file is not sent: the file changed since the build', async () => {
    const name = 'assets/site.css';
    const changed = Buffer.from(`${files[name].toString()}\n/* edited after the build */\n`);
    await writeFile(path.join(site, name), changed);
    const later = new Date(Date.now() + 5_000);
    await utimes(path.join(site, name), later, later);
    try {
      const reply = await get(name, { 'accept-encoding': 'br, gzip' });
      expect(reply.headers['content-encoding']).toBeUndefined();
      expectBytes(reply.body, changed);
    } finally {
      await writeFile(path.join(site, name), files[name]);
      await utimes(path.join(site, name), new Date(0), new Date(0));
    }
  });
});
