// What the sandbox's browser build puts in place of Node (workbench/msw/browser/): each stand-in gives
// Node's answers (SHA-256 digests, so the seeded world is the same in the page; base64url; isIP), the
// embedded document decodes to the ref parser's own result with its sharing, and the bundle loads no
// Node built-in, engine or HTTP library: its only import is `msw`.
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { build } from 'esbuild';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { isIP as nodeIsIP } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBrowserSandbox, embeddedContract } from '../../scripts/build-msw-browser.js';
import { documents, repoRoot } from '../../scripts/lib/repo.js';
import { createHash as standInHash, createHmac as standInHmac, sha256, timingSafeEqual as standInEqual } from '../../workbench/msw/browser/crypto.js';
import { isIP } from '../../workbench/msw/browser/node-builtins.js';
import { decodeShared, encodeShared, SHARED_KEY } from '../../workbench/contract/shared-graph.js';

const nodeSha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('SHA-256 of the browser build', () => {
  it('matches the FIPS 180-4 answer for "abc" and Node for every length around the block edges', () => {
    expect(hex(sha256(new TextEncoder().encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (let n = 0; n <= 200; n++) {
      const input = randomBytes(n);
      expect(hex(sha256(input)), `length ${n}`).toBe(nodeSha(input));
    }
    const large = randomBytes(1024 * 1024 + 3);
    expect(hex(sha256(large))).toBe(nodeSha(large));
  });

  it('createHash gives the digests the sandbox asks for, as Node does', () => {
    for (const text of ['', 'demo-store\u0000catalog', 'ünïcödé ✓', 'x'.repeat(1000)]) {
      for (const encoding of ['hex', 'base64'] as const) expect(standInHash('sha256').update(text).digest(encoding)).toBe(createHash('sha256').update(text).digest(encoding));
      expect([...standInHash('sha256').update(text).digest()]).toEqual([...createHash('sha256').update(text).digest()]);
    }
    expect(() => standInHash('md5')).toThrow('SHA-256 only');
  });

  it('createHmac gives the store keys Node gives (RFC 4231 case 2, short and long keys)', () => {
    expect(standInHmac('sha256', 'Jefe').update('what do ya want for nothing?').digest('hex')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    for (const key of ['', 'k', 'x'.repeat(64), 'y'.repeat(65), randomBytes(200)]) {
      for (const text of ['demo-store', 'ünïcödé', 'z'.repeat(300)]) {
        expect(standInHmac('sha256', key).update(text).digest('hex')).toBe(createHmac('sha256', key).update(text).digest('hex'));
      }
    }
    expect(standInEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(standInEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
  });
});

describe('the other stand-ins', () => {
  it('the Buffer polyfill writes base64url as Node does', async () => {
    const bundled = await build({
      stdin: { contents: "import { Buffer } from './buffer.ts'; export const encode = (bytes) => Buffer.from(bytes).toString('base64url');", resolveDir: path.join(repoRoot, 'workbench/msw/browser'), loader: 'ts' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    const { encode } = (await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`)) as { encode(bytes: Uint8Array): string };
    for (let n = 0; n < 40; n++) {
      const bytes = randomBytes(n);
      expect(encode(bytes)).toBe(bytes.toString('base64url'));
    }
  });

  it.each([
    ['127.0.0.1'],
    ['255.255.255.255'],
    ['256.1.1.1'],
    ['::1'],
    ['fe80::1'],
    ['2001:db8::8a2e:370:7334'],
    ['1::2::3'],
    ['localhost'],
    [''],
    ['01.2.3.4'],
  ])('isIP(%j) is what Node says', (input) => {
    expect(isIP(input)).toBe(nodeIsIP(input));
  });
});

describe('the embedded storefront document', () => {
  it("decodes to the ref parser's result, with the same sharing and every file the document reaches", async () => {
    const parser = new $RefParser();
    const original = await parser.dereference(documents.storefront, { dereference: { circular: 'ignore' } });
    const snapshot = await embeddedContract();
    const { root, parts } = decodeShared(JSON.parse(JSON.stringify(snapshot.root)), JSON.parse(JSON.stringify(snapshot.shared)), JSON.parse(JSON.stringify(snapshot.parts)));
    expect(root).toEqual(original);
    expect(Object.keys(parts).sort()).toEqual(parser.$refs.paths().map((file) => path.relative(repoRoot, file)).sort());
    const objects = (value: unknown, seen = new Set<object>()): Set<object> => {
      if (value && typeof value === 'object' && !seen.has(value)) {
        seen.add(value);
        for (const child of Object.values(value)) objects(child, seen);
      }
      return seen;
    };
    expect(objects(root).size).toBe(objects(original).size);
    const example = 'spec/openapi/components/examples/ListProductsOk.yaml';
    expect(objects(root).has(parts[example] as object)).toBe(objects(original).has(parser.$refs.get(path.join(repoRoot, example)) as object));
  });

  it('keeps a `__proto__` key an own property and refuses a value JSON cannot hold', () => {
    const shared = { a: 1 };
    const input = JSON.parse('{"__proto__": {"polluted": true}, "x": null}') as Record<string, unknown>;
    input.one = shared;
    input.two = shared;
    const encoded = JSON.parse(JSON.stringify(encodeShared(input)));
    const { root } = decodeShared(encoded.root, encoded.shared) as { root: Record<string, any> };
    expect(Object.getPrototypeOf(root)).toBe(Object.prototype);
    expect(Object.hasOwn(root, '__proto__')).toBe(true);
    expect(root.one).toBe(root.two);
    expect(() => encodeShared({ n: Number.NaN })).toThrow('no JSON form');
    expect(() => encodeShared({ [SHARED_KEY]: 1 })).toThrow(SHARED_KEY);
  });
});

describe('the bundle', () => {
  it('imports msw alone: no Node built-in, Prism, SQLite or HTTP library is in it', async () => {
    const { metafile, bytes, gzipBytes } = await buildBrowserSandbox();
    const [output] = Object.values(metafile.outputs);
    expect(output.imports.map((i) => i.path)).toEqual(['msw']);
    const inputs = Object.keys(metafile.inputs);
    // issue 39 item 1: the transports and the file ports are adapters; the page loads only its own, the in-process one.
    expect(inputs.filter((input) => input.startsWith('workbench/adapters/'))).toEqual(['workbench/adapters/in-process.ts']);
    expect(inputs.filter((input) => input.startsWith('node:') || /node_modules\/(@stoplight|libsql|@libsql|undici|yaml|@apidevtools)\//.test(input))).toEqual([]);
    // The library's precompiled validators of every operation stay out (its manifest's sideEffects: false).
    const inOutput = Object.entries(output.inputs).filter(([, contribution]) => contribution.bytesInOutput > 0).map(([input]) => input);
    expect(inOutput.filter((input) => input.startsWith('generated/validators/'))).toEqual([]);
    expect(inOutput).toEqual(expect.arrayContaining(['workbench/engine/pipeline.ts', 'workbench/sandbox/operations.ts', 'workbench/http/errors.ts', 'workbench/engine/exchange.ts']));
    console.log(`sandbox browser build: ${(bytes / 1024).toFixed(0)} kB, ${(gzipBytes / 1024).toFixed(0)} kB gzip, ${inputs.length} modules`);
  });
});
