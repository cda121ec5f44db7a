import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from '../../src/webhooks/verify.js';
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
