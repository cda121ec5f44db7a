// Signature check of seed 5.5: `X-SVC-Signature` = `sha256=` + lowercase hex HMAC-SHA256 of the raw body.
// Verification works on the exact bytes received, never on re-serialised JSON (a JSON body parser that ran
// first changes whitespace, key order and escapes, so the HMAC no longer matches: stripe-node #1254,
// octokit/webhooks.js #71). It returns a verdict instead of throwing, because every input here comes
// from the network and a throw would turn hostile input into a 500 (which the sender retries).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Raw request body bytes. A string is encoded as UTF-8 before hashing; prefer bytes. */
export type RawBody = Buffer | Uint8Array | ArrayBuffer | string;

/** One signing secret or several (the new one first, then the previous one during a rotation overlap). */
export type SecretInput = string | Uint8Array;
export type Secrets = SecretInput | readonly SecretInput[];

export type SignatureFailureReason = 'missing' | 'malformed' | 'mismatch' | 'not-raw-body' | 'no-secrets';

export type SignatureVerdict =
  | { ok: true; /** Position in `secrets` of the secret that matched: > 0 means an older secret is still in use. */ secretIndex: number }
  | { ok: false; reason: SignatureFailureReason };

/** The only accepted header shape (seed 5.5, spec `DeliveryHeaders`): anything else is malformed, not "close enough". */
export const SIGNATURE_PATTERN = /^sha256=[0-9a-f]{64}$/;
const SIGNATURE_LENGTH = 'sha256='.length + 64;

/** The body as bytes, or undefined when it is not raw (a parsed object, a number, null, ...). */
export function toBytes(rawBody: unknown): Uint8Array | undefined {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return rawBody;
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  // Other views (DataView, Uint16Array, ...) still carry the exact bytes; look at them as bytes.
  if (ArrayBuffer.isView(rawBody)) return new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  return undefined;
}

/** The usable secrets: empty ones are dropped, because an empty HMAC key is a key anyone knows. */
export function normalizeSecrets(secrets: unknown): Uint8Array[] {
  const list: unknown[] = Array.isArray(secrets) ? secrets : [secrets];
  const out: Uint8Array[] = [];
  for (const secret of list) {
    if (typeof secret === 'string' && secret.length > 0) out.push(Buffer.from(secret, 'utf8'));
    else if (secret instanceof Uint8Array && secret.byteLength > 0) out.push(secret);
  }
  return out;
}

/** HMAC-SHA256 of `bytes` keyed with `secret`, as 32 raw bytes. */
function hmac(secret: Uint8Array, bytes: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(bytes).digest();
}

/**
 * Checks `X-SVC-Signature` against the raw body with each secret, in constant time.
 * Never throws: header arrays, numbers, `undefined`, huge strings and parsed bodies all come back as a reason.
 */
export function verifySignature(rawBody: unknown, signatureHeader: unknown, secrets: Secrets | unknown): SignatureVerdict {
  try {
    const keys = normalizeSecrets(secrets);
    if (keys.length === 0) return { ok: false, reason: 'no-secrets' };
    const bytes = toBytes(rawBody);
    if (bytes === undefined) return { ok: false, reason: 'not-raw-body' };
    if (signatureHeader === undefined || signatureHeader === null || signatureHeader === '') return { ok: false, reason: 'missing' };
    // Length first so a multi-megabyte header costs nothing; the regex then pins prefix, case and alphabet.
    // Stryker disable next-line ConditionalExpression: the pattern alone refuses all the first two refuse (a non-string, another length); they only spare it the work
    if (typeof signatureHeader !== 'string' || signatureHeader.length !== SIGNATURE_LENGTH || !SIGNATURE_PATTERN.test(signatureHeader)) {
      return { ok: false, reason: 'malformed' };
    }
    // The pattern guarantees 64 lowercase hex digits, so this decodes to exactly 32 bytes.
    const given = Buffer.from(signatureHeader.slice(7), 'hex');
    let matched = -1;
    // Every secret is tried even after a match, so the time taken does not tell which one matched.
    for (let i = 0; i < keys.length; i++) {
      if (timingSafeEqual(hmac(keys[i]!, bytes), given) && matched === -1) matched = i;
    }
    return matched === -1 ? { ok: false, reason: 'mismatch' } : { ok: true, secretIndex: matched };
  } catch {
    // Nothing above is expected to throw; if a future Node does, fail closed rather than crash the request.
    return { ok: false, reason: 'malformed' };
  }
}

/** The `X-SVC-Signature` value the service would send for `rawBody`: for tests, simulators and examples. */
export function signPayload(rawBody: RawBody, secret: SecretInput): string {
  const bytes = toBytes(rawBody);
  if (bytes === undefined) throw new TypeError('signPayload: rawBody must be a Buffer, Uint8Array, ArrayBuffer or string (the exact bytes sent)');
  const [key] = normalizeSecrets(secret);
  if (key === undefined) throw new TypeError('signPayload: secret must be a non-empty string or Uint8Array');
  return `sha256=${hmac(key, bytes).toString('hex')}`;
}
