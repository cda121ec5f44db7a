// node:crypto in the sandbox's browser build: the three calls the storefront path makes, with the same
// results as Node's. SHA-256 must be synchronous and identical (the seeded world's PRNG streams are
// seeded from digests, random.ts: the same seed gives the same world in Node and in the page), so it is
// computed here (FIPS 180-4), not with Web Crypto's asynchronous digest. Randomness comes from
// `crypto.getRandomValues`, as Node's comes from the OS. test/msw/browser-stand-ins.test.ts compares the
// digests with Node's.
import { Buffer } from './buffer.js';

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** SHA-256 of `data` (FIPS 180-4). */
export function sha256(data: Uint8Array): Uint8Array {
  const blocks = Math.ceil((data.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  // The message length in bits, as a 64-bit big-endian number.
  view.setUint32(padded.length - 8, Math.floor(data.length / 0x20000000));
  view.setUint32(padded.length - 4, (data.length * 8) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]);
  return out;
}

class Sha256Hash {
  private readonly parts: Uint8Array[] = [];

  update(data: string | Uint8Array): this {
    this.parts.push(typeof data === 'string' ? new TextEncoder().encode(data) : data);
    return this;
  }

  digest(): Buffer;
  digest(encoding: 'hex' | 'base64' | 'base64url'): string;
  digest(encoding?: 'hex' | 'base64' | 'base64url'): Buffer | string {
    const digest = Buffer.from(sha256(Buffer.concat(this.parts)));
    return encoding ? digest.toString(encoding) : digest;
  }
}

export function createHash(algorithm: string): Sha256Hash {
  if (algorithm.toLowerCase() !== 'sha256') throw new Error(`createHash("${algorithm}"): the sandbox's browser build has SHA-256 only`);
  return new Sha256Hash();
}

export function randomBytes(size: number): Buffer {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(size)));
}

/** An RFC 9562 version 4 UUID (crypto.randomUUID needs a secure context; this does not). */
export function randomUUID(): string {
  const b = globalThis.crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** HMAC-SHA-256 (RFC 2104) over the SHA-256 above: the sandbox's per-store API keys (keys.ts). */
class HmacSha256 {
  private readonly inner = new Sha256Hash();
  private readonly outerKey: Uint8Array;

  constructor(key: string | Uint8Array) {
    let k = typeof key === 'string' ? new TextEncoder().encode(key) : key;
    if (k.length > 64) k = sha256(k);
    const block = new Uint8Array(64);
    block.set(k);
    const ipad = block.map((b) => b ^ 0x36);
    this.outerKey = block.map((b) => b ^ 0x5c);
    this.inner.update(ipad);
  }

  update(data: string | Uint8Array): this {
    this.inner.update(data);
    return this;
  }

  digest(): Buffer;
  digest(encoding: 'hex' | 'base64' | 'base64url'): string;
  digest(encoding?: 'hex' | 'base64' | 'base64url'): Buffer | string {
    const out = Buffer.from(sha256(Buffer.concat([this.outerKey, this.inner.digest()])));
    return encoding ? out.toString(encoding) : out;
  }
}

export function createHmac(algorithm: string, key: string | Uint8Array): HmacSha256 {
  if (algorithm.toLowerCase() !== 'sha256') throw new Error(`createHmac("${algorithm}"): the sandbox's browser build has SHA-256 only`);
  return new HmacSha256(key);
}

/** Compares two equal-length byte strings in time independent of where they differ (as Node's does). */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) throw new RangeError('Input buffers must have the same byte length');
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}
