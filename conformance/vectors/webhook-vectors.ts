// Test vectors for the receiver kit.
//
// 1. KNOWN_ANSWERS: signatures computed independently of this code, once, with OpenSSL, and pasted:
//      printf '%s' 'Hello, World!' > body && openssl dgst -sha256 -hmac "It's a Secret to Everybody" body
//    (binary bodies written with printf '\xNN' escapes; the hex column below is the exact input).
//    K1 is also the example GitHub documents for X-Hub-Signature-256, the same format as X-SVC-Signature.
//
// 2. deliveryVectors(): whole deliveries (body bytes + headers + the receiver's secrets) and the verdict
//    the receiver must reach: HTTP status and reason. Built from a valid signed delivery (fixtures.ts), each
//    negative vector changes one thing. Signatures there come from signPayload, which KNOWN_ANSWERS pins.
import { buildDelivery, OTHER_SUBSCRIPTION_SECRET, PREVIOUS_SECRET, SECRET, type Delivery } from './webhook-fixtures.js';
import { signPayload } from 'storefront-contract/webhooks';
import type { DeliveryRejectReason } from 'storefront-contract/webhooks';

export interface KnownAnswer {
  name: string;
  secret: string;
  /** The exact body bytes, hex. */
  bodyHex: string;
  /** `X-SVC-Signature` as OpenSSL computed it. */
  signature: string;
}

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

export const KNOWN_ANSWERS: KnownAnswer[] = [
  {
    name: 'K1 ascii text (GitHub documentation example)',
    secret: "It's a Secret to Everybody",
    bodyHex: hex('Hello, World!'),
    signature: 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
  },
  {
    name: 'K2 compact JSON, the contract example secret',
    secret: 'example-signing-secret-not-for-production',
    bodyHex: hex('{"event":"order.created","event_id":"evt_1"}'),
    signature: 'sha256=dc41e47ce9691d547ea2fada51522547cb936a790504fa0934df02712d3b1330',
  },
  {
    name: 'K3 multi-byte UTF-8 (rupee sign, accented letter, emoji)',
    secret: 'example-signing-secret-not-for-production',
    bodyHex: '7b2273796d626f6c223a22e282b9222c226e6f7465223a22636166c3a920f09f9b92227d',
    signature: 'sha256=fa8cc8dc7bc4f9daddf2b9d60ce58e4638460d55e9999d33e034fbbb5101e4b2',
  },
  {
    name: 'K4 bytes that are not UTF-8 (signature is over bytes, not text)',
    secret: 'example-signing-secret-not-for-production',
    bodyHex: 'fffe7b2261223a317dc328',
    signature: 'sha256=732590bac348a6280ed9a85f16a702b3327d1033e581fbbadec4d708d859132b',
  },
  {
    name: 'K5 empty body',
    secret: 'example-signing-secret-not-for-production',
    bodyHex: '',
    signature: 'sha256=823cd0a496a1c00f8068efbe01f72eb3fd60f0b2f8b04edd905f30564cb9c2eb',
  },
  {
    name: 'K6 trailing newline is part of the bytes',
    secret: 'example-signing-secret-not-for-production',
    bodyHex: hex('{"a":1}\n'),
    signature: 'sha256=0e2367b5c0dde26da5c5af52af7db7f67b40594b1df0d90867abd06dcdaf05d9',
  },
  {
    name: 'K7 same body as K2, another secret',
    secret: 'whsec_previous_2024',
    bodyHex: hex('{"event":"order.created","event_id":"evt_1"}'),
    signature: 'sha256=ba58b65efd62a11deee3cfbfc71ae503b6846475cad08240d2ae5b9579bc5288',
  },
];

export interface DeliveryVector {
  name: string;
  /** What reaches the receiver as the body: usually bytes; a parsed object or null for misuse vectors. */
  rawBody: unknown;
  headers: Record<string, unknown>;
  /** The receiver's configured secrets. */
  secrets: string[];
  maxBodyBytes?: number;
  want: { status: 200 } | { status: 400 | 401 | 413; reason: DeliveryRejectReason };
  /** Expected `verifySignature` verdict: `true` when the bytes carry a valid signature (later checks may still fail). */
  signatureValid: boolean;
}

/** A copy of the delivery's headers with one header replaced (`undefined` removes it). */
function withHeader(d: Delivery, name: string, value: unknown): Record<string, unknown> {
  const headers: Record<string, unknown> = { ...d.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return headers;
}

/** Signs `raw` with `secret` and keeps the delivery's other headers. */
function signedAs(d: Delivery, raw: Buffer | string, secret = SECRET): Record<string, unknown> {
  return { ...d.headers, 'x-svc-signature': signPayload(raw, secret) };
}

export function deliveryVectors(): DeliveryVector[] {
  const d = buildDelivery();
  const sig = d.headers['x-svc-signature'];
  const digest = sig.slice('sha256='.length);
  const base = { rawBody: d.raw, secrets: [SECRET] };
  const flipped = Buffer.from(d.raw);
  flipped[Math.floor(flipped.length / 2)] ^= 0x01;
  // What a sender may legitimately send and a JSON body parser would then rewrite: \u escapes and key order.
  const escaped = Buffer.from(JSON.stringify(d.body).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const reordered = Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(d.body).reverse())));
  const rotated = buildDelivery({ secret: PREVIOUS_SECRET });
  const big = Buffer.concat([d.raw, Buffer.alloc(64, 0x20)]);
  const notJson = Buffer.from(d.raw.toString('utf8').slice(0, -1)); // last `}` cut off
  const invalidUtf8 = Buffer.concat([d.raw.subarray(0, 20), Buffer.from([0xc3, 0x28]), d.raw.subarray(20)]);
  const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), d.raw]);
  const noStore = buildDelivery({ mutate: (b) => delete (b.payload as Record<string, unknown>).store_id });
  const innerMismatch = buildDelivery({ mutate: (b) => (b.payload.event_id = 'evt_someone_else') });
  const testDelivery = buildDelivery({ isTest: true });

  const negative = (name: string, v: Partial<DeliveryVector> & Pick<DeliveryVector, 'want' | 'signatureValid'>): DeliveryVector => ({
    name,
    ...base,
    headers: d.headers,
    ...v,
  });

  return [
    // Positive.
    { name: 'P1 valid delivery', ...base, headers: d.headers, want: { status: 200 }, signatureValid: true },
    { name: 'P2 valid delivery, body as a string', rawBody: d.raw.toString('utf8'), secrets: [SECRET], headers: d.headers, want: { status: 200 }, signatureValid: true },
    { name: 'P3 valid delivery, body as a plain Uint8Array', rawBody: new Uint8Array(d.raw), secrets: [SECRET], headers: d.headers, want: { status: 200 }, signatureValid: true },
    { name: 'P4 header names in mixed case', ...base, headers: Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase()), v])), want: { status: 200 }, signatureValid: true },
    { name: 'P5 rotation overlap: signed with the previous secret, receiver holds both', rawBody: rotated.raw, headers: rotated.headers, secrets: [SECRET, PREVIOUS_SECRET], want: { status: 200 }, signatureValid: true },
    { name: 'P6 test delivery (is_test) is a valid delivery', rawBody: testDelivery.raw, headers: testDelivery.headers, secrets: [SECRET], want: { status: 200 }, signatureValid: true },

    // Signature header: presence and shape (401).
    negative('N01 signature header missing', { headers: withHeader(d, 'x-svc-signature', undefined), want: { status: 401, reason: 'missing' }, signatureValid: false }),
    negative('N02 signature header empty', { headers: withHeader(d, 'x-svc-signature', ''), want: { status: 401, reason: 'missing' }, signatureValid: false }),
    negative('N03 sha1= prefix with a real HMAC-SHA1', { headers: withHeader(d, 'x-svc-signature', `sha1=${'a'.repeat(40)}`), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N04 SHA256= in upper case', { headers: withHeader(d, 'x-svc-signature', `SHA256=${digest}`), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N05 bare hex without prefix', { headers: withHeader(d, 'x-svc-signature', digest), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N06 upper-case hex digits', { headers: withHeader(d, 'x-svc-signature', `sha256=${digest.toUpperCase()}`), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N07 63 hex digits', { headers: withHeader(d, 'x-svc-signature', sig.slice(0, -1)), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N08 65 hex digits', { headers: withHeader(d, 'x-svc-signature', `${sig}0`), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N09 non-hex digit', { headers: withHeader(d, 'x-svc-signature', `${sig.slice(0, -1)}g`), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N10 trailing space', { headers: withHeader(d, 'x-svc-signature', `${sig} `), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N11 leading space', { headers: withHeader(d, 'x-svc-signature', ` ${sig}`), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N12 header repeated (array)', { headers: withHeader(d, 'x-svc-signature', [sig, sig]), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N13 header as a one-element array', { headers: withHeader(d, 'x-svc-signature', [sig]), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N14 header repeated, joined by a proxy', { headers: withHeader(d, 'x-svc-signature', `${sig}, ${sig}`), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N15 header is a number', { headers: withHeader(d, 'x-svc-signature', 256), want: { status: 401, reason: 'malformed' }, signatureValid: false }),
    negative('N16 header of 1 MB', { headers: withHeader(d, 'x-svc-signature', `sha256=${'a'.repeat(1024 * 1024)}`), want: { status: 401, reason: 'malformed' }, signatureValid: false }),

    // Right shape, wrong bytes or wrong key (401 mismatch).
    negative('N17 one body byte flipped', { rawBody: flipped, want: { status: 401, reason: 'mismatch' }, signatureValid: false }),
    negative('N18 re-serialised JSON (sender used \\u escapes, receiver re-stringified)', { headers: signedAs(d, escaped), rawBody: Buffer.from(JSON.stringify(JSON.parse(escaped.toString()))), want: { status: 401, reason: 'mismatch' }, signatureValid: false }),
    negative('N19 re-serialised JSON (key order changed)', { headers: signedAs(d, reordered), rawBody: Buffer.from(JSON.stringify(d.body)), want: { status: 401, reason: 'mismatch' }, signatureValid: false }),
    negative('N20 re-indented JSON', { rawBody: Buffer.from(JSON.stringify(d.body, null, 2)), want: { status: 401, reason: 'mismatch' }, signatureValid: false }),
    negative('N21 trailing newline added', { rawBody: Buffer.concat([d.raw, Buffer.from('\n')]), want: { status: 401, reason: 'mismatch' }, signatureValid: false }),
    negative('N22 wrong secret', { headers: signedAs(d, d.raw, 'whsec_guessed_by_attacker'), want: { status: 401, reason: 'mismatch' }, signatureValid: false }),
    negative("N23 another subscription's secret", { headers: signedAs(d, d.raw, OTHER_SUBSCRIPTION_SECRET), want: { status: 401, reason: 'mismatch' }, signatureValid: false }),
    negative('N24 rotated-out secret (overlap over)', { rawBody: rotated.raw, headers: rotated.headers, want: { status: 401, reason: 'mismatch' }, signatureValid: false }),
    negative('N25 signature of an empty body on a real body', { headers: signedAs(d, ''), want: { status: 401, reason: 'mismatch' }, signatureValid: false }),

    // Misuse and configuration (401).
    negative('N26 parsed object instead of raw bytes', { rawBody: d.body, want: { status: 401, reason: 'not-raw-body' }, signatureValid: false }),
    negative('N27 null body', { rawBody: null, want: { status: 401, reason: 'not-raw-body' }, signatureValid: false }),
    negative('N28 receiver has no secret', { secrets: [], want: { status: 401, reason: 'no-secrets' }, signatureValid: false }),
    negative('N29 receiver secret is an empty string', { secrets: [''], want: { status: 401, reason: 'no-secrets' }, signatureValid: false }),

    // Size (413), checked before the HMAC.
    negative('N30 body over maxBodyBytes, validly signed', { rawBody: big, headers: signedAs(d, big), maxBodyBytes: d.raw.length, want: { status: 413, reason: 'too-large' }, signatureValid: true }),

    // Authentic bytes, bad content (400).
    negative('N31 malformed JSON with a valid signature', { rawBody: notJson, headers: signedAs(d, notJson), want: { status: 400, reason: 'invalid-json' }, signatureValid: true }),
    negative('N32 invalid UTF-8 with a valid signature', { rawBody: invalidUtf8, headers: signedAs(d, invalidUtf8), want: { status: 400, reason: 'invalid-utf8' }, signatureValid: true }),
    negative('N33 UTF-8 byte order mark with a valid signature', { rawBody: withBom, headers: signedAs(d, withBom), want: { status: 400, reason: 'invalid-json' }, signatureValid: true }),
    negative('N34 empty body with a valid signature', { rawBody: Buffer.alloc(0), headers: signedAs(d, ''), want: { status: 400, reason: 'invalid-json' }, signatureValid: true }),
    negative('N35 schema violation (payload.store_id missing) with a valid signature', { rawBody: noStore.raw, headers: noStore.headers, want: { status: 400, reason: 'schema' }, signatureValid: true }),
    negative('N36 payload.event_id differs from event_id', { rawBody: innerMismatch.raw, headers: innerMismatch.headers, want: { status: 400, reason: 'envelope-mismatch' }, signatureValid: true }),

    // Unsigned headers disagree with the signed body (400).
    negative('N37 X-SVC-Event differs from body event', { headers: withHeader(d, 'x-svc-event', 'product.created'), want: { status: 400, reason: 'header-mismatch' }, signatureValid: true }),
    negative('N38 X-SVC-Event-ID differs from body event_id', { headers: withHeader(d, 'x-svc-event-id', 'evt_forged'), want: { status: 400, reason: 'header-mismatch' }, signatureValid: true }),
    negative('N39 X-SVC-Delivery-ID differs from body delivery_id', { headers: withHeader(d, 'x-svc-delivery-id', 'dlv_forged'), want: { status: 400, reason: 'header-mismatch' }, signatureValid: true }),
    negative('N40 X-SVC-Event-ID missing', { headers: withHeader(d, 'x-svc-event-id', undefined), want: { status: 400, reason: 'header-mismatch' }, signatureValid: true }),
    negative('N41 X-SVC-Event repeated (array)', { headers: withHeader(d, 'x-svc-event', [d.body.event, d.body.event]), want: { status: 400, reason: 'header-mismatch' }, signatureValid: true }),
  ];
}

