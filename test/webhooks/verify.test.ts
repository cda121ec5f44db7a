import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_PATTERN, signPayload, verifySignature } from '../../src/webhooks/verify.js';
import { KNOWN_ANSWERS } from '../../conformance/vectors/webhook-vectors.js';

describe('signPayload / verifySignature: known answers computed with OpenSSL', () => {
  it.each(KNOWN_ANSWERS.map((k) => [k.name, k] as const))('%s', async (_name, k) => {
    const body = Buffer.from(k.bodyHex, 'hex');
    expect(signPayload(body, k.secret)).toBe(k.signature);
    expect(verifySignature(body, k.signature, [k.secret])).toEqual({ ok: true, secretIndex: 0 });
    expect(verifySignature(new Uint8Array(body), k.signature, k.secret)).toEqual({ ok: true, secretIndex: 0 });
    // octokit takes text only and throws on an empty body: compare where the bytes are a string it accepts.
    const text = body.toString('utf8');
    if (body.length > 0 && Buffer.from(text, 'utf8').equals(body)) {
      expect(await octokitVerify(k.secret, text, k.signature)).toBe(true);
      expect(verifySignature(text, k.signature, [k.secret]).ok).toBe(true);
    }
  });

  it('a byte that does not survive a UTF-8 round trip breaks the signature of the decoded text (why bytes are required)', () => {
    const k = KNOWN_ANSWERS.find((v) => v.name.startsWith('K4'))!;
    const body = Buffer.from(k.bodyHex, 'hex');
    expect(verifySignature(body, k.signature, k.secret).ok).toBe(true);
    expect(verifySignature(body.toString('utf8'), k.signature, k.secret)).toEqual({ ok: false, reason: 'mismatch' });
  });
});

describe('verifySignature: secrets and rotation', () => {
  const body = Buffer.from('{"event":"order.created","event_id":"evt_1"}');
  const k2 = 'sha256=dc41e47ce9691d547ea2fada51522547cb936a790504fa0934df02712d3b1330';
  const k7 = 'sha256=ba58b65efd62a11deee3cfbfc71ae503b6846475cad08240d2ae5b9579bc5288';

  it('reports which secret matched', () => {
    const secrets = ['example-signing-secret-not-for-production', 'whsec_previous_2024'];
    expect(verifySignature(body, k2, secrets)).toEqual({ ok: true, secretIndex: 0 });
    expect(verifySignature(body, k7, secrets)).toEqual({ ok: true, secretIndex: 1 });
    expect(verifySignature(body, k7, secrets.slice(0, 1))).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('accepts a Buffer secret and skips empty secrets', () => {
    expect(verifySignature(body, k2, ['', Buffer.from('example-signing-secret-not-for-production')])).toEqual({ ok: true, secretIndex: 0 });
  });

  it('refuses to sign with no secret or a parsed body', () => {
    expect(() => signPayload(body, '')).toThrow(/secret/);
    expect(() => signPayload({ a: 1 } as never, 's')).toThrow(/raw/);
  });
});

describe('verifySignature: hostile input never throws', () => {
  const bodies: unknown[] = [undefined, null, 0, 42, true, {}, [], { toString: () => 'x' }, Symbol('s'), () => 1, new Map(), Buffer.alloc(0), 'x'.repeat(2_000_000), new DataView(new ArrayBuffer(4))];
  const headers: unknown[] = [undefined, null, '', ' ', 0, 256, NaN, true, [], ['sha256=' + '0'.repeat(64)], { 0: 'a' }, Symbol('h'), 'sha256=' + '0'.repeat(10_000_000), 'sha256=' + '0'.repeat(64), '\u0000'.repeat(71), 'sha256=' + 'é'.repeat(64)];
  const secretsList: unknown[] = [undefined, null, [], [''], [null], 'k', ['k', 42], { length: 1, 0: 'k' }, Buffer.from('k')];

  it('returns a verdict for every combination', () => {
    for (const b of bodies) {
      for (const h of headers) {
        for (const s of secretsList) {
          const verdict = verifySignature(b, h, s);
          expect(verdict.ok).toBe(false);
          if (!verdict.ok) expect(['missing', 'malformed', 'mismatch', 'not-raw-body', 'no-secrets']).toContain(verdict.reason);
        }
      }
    }
  });
});

describe('issue 38: verifySignature and signPayload, both sides of each check', () => {
  const secret = 'example-signing-secret-not-for-production';
  const body = Buffer.from('{"event":"order.created","event_id":"evt_1"}');
  const good = 'sha256=dc41e47ce9691d547ea2fada51522547cb936a790504fa0934df02712d3b1330';

  it('signs and verifies the exact bytes a view or an ArrayBuffer shows, offset included', () => {
    // The body sits at an odd offset inside a larger buffer: a view must hash its own bytes, not the whole buffer.
    const backing = new ArrayBuffer(body.length + 8);
    new Uint8Array(backing).set(body, 4);
    const view = new DataView(backing, 4, body.length);
    expect(signPayload(view as never, secret)).toBe(good);
    expect(verifySignature(view, good, secret)).toEqual({ ok: true, secretIndex: 0 });
    const exact = body.buffer.slice(body.byteOffset, body.byteOffset + body.length);
    expect(signPayload(exact, secret)).toBe(good);
    expect(verifySignature(exact, good, secret)).toEqual({ ok: true, secretIndex: 0 });
    expect(signPayload(body.toString('utf8'), secret)).toBe(good);
    expect(signPayload(body, Buffer.from(secret))).toBe(good);
    // An even-length body seen through a 16-bit view is still the same bytes.
    const even = Buffer.from('{"a":1}\n');
    const evenBacking = new ArrayBuffer(even.length + 2);
    new Uint8Array(evenBacking).set(even, 2);
    expect(signPayload(new Uint16Array(evenBacking, 2, even.length / 2) as never, 'k')).toBe(signPayload(even, 'k'));
  });

  it('one secret given alone (string or bytes) works like a list of one; empty and non-secret entries are skipped', () => {
    expect(verifySignature(body, good, secret)).toEqual({ ok: true, secretIndex: 0 });
    expect(verifySignature(body, good, Buffer.from(secret))).toEqual({ ok: true, secretIndex: 0 });
    expect(verifySignature(body, good, [new Uint8Array(0), 42, null, secret])).toEqual({ ok: true, secretIndex: 0 });
    expect(verifySignature(body, good, ['', new Uint8Array(0)])).toEqual({ ok: false, reason: 'no-secrets' });
    expect(verifySignature(body, good, new Uint8Array(0))).toEqual({ ok: false, reason: 'no-secrets' });
    expect(verifySignature(body, good, 42)).toEqual({ ok: false, reason: 'no-secrets' });
  });

  it('reports the first matching secret, also when a later one matches too, and a match in third place', () => {
    expect(verifySignature(body, good, [secret, secret])).toEqual({ ok: true, secretIndex: 0 });
    expect(verifySignature(body, good, ['a', 'b', secret, secret])).toEqual({ ok: true, secretIndex: 2 });
  });

  it('checks in order: secrets, then raw body, then presence, then shape, then the HMAC', () => {
    expect(verifySignature({}, undefined, [])).toEqual({ ok: false, reason: 'no-secrets' });
    expect(verifySignature({}, undefined, secret)).toEqual({ ok: false, reason: 'not-raw-body' });
    for (const missing of [undefined, null, '']) expect(verifySignature(body, missing, secret)).toEqual({ ok: false, reason: 'missing' });
    expect(verifySignature(body, ' ', secret)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature(body, good.replace('dc41', 'dc42'), secret)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('the header length is exact: one character short or long is malformed, the right length with a wrong digest is a mismatch', () => {
    expect(verifySignature(body, good.slice(0, -1), secret)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature(body, `${good}0`, secret)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature(body, `sha256=${'0'.repeat(64)}`, secret)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignature(body, `sha256:${good.slice(7)}`, secret)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature(body, `xsha256=${good.slice(8)}`, secret)).toEqual({ ok: false, reason: 'malformed' });
    // A String object that reads like a valid header is still not a header string.
    expect(verifySignature(body, new String(good), secret)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('SIGNATURE_PATTERN, exported for receivers, is anchored at both ends and wants lower-case hex', () => {
    const hex = good.slice(7);
    expect(SIGNATURE_PATTERN.test(good)).toBe(true);
    expect(SIGNATURE_PATTERN.test(`x${good}`)).toBe(false);
    expect(SIGNATURE_PATTERN.test(`${good}0`)).toBe(false);
    expect(SIGNATURE_PATTERN.test(`${good}\n`)).toBe(false);
    expect(SIGNATURE_PATTERN.test(good.slice(0, -1))).toBe(false);
    expect(SIGNATURE_PATTERN.test(`sha256=${hex.toUpperCase()}`)).toBe(false);
    expect(SIGNATURE_PATTERN.test(`sha256=${hex.slice(0, -1)}g`)).toBe(false);
    expect(SIGNATURE_PATTERN.test(`sha256=${'0123456789abcdef'.repeat(4)}`)).toBe(true);
  });

  it('a secrets list that throws when read comes back as a verdict, not a throw', () => {
    const hostile = new Proxy([secret], {
      get() {
        throw new Error('boom');
      },
    });
    expect(verifySignature(body, good, hostile)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('signPayload says what it needs', () => {
    expect(() => signPayload(42 as never, secret)).toThrow(new TypeError('signPayload: rawBody must be a Buffer, Uint8Array, ArrayBuffer or string (the exact bytes sent)'));
    expect(() => signPayload(body, new Uint8Array(0))).toThrow(new TypeError('signPayload: secret must be a non-empty string or Uint8Array'));
  });
});
