// Ids and secrets in the formats the contract shows: `wh_`/`evt_`/`dlv_` + a 26-character ULID
// (time-ordered, so ids sort by creation), and `whsec_` + 32 random bytes in base64url (register AD-012).
import { randomBytes, randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
// Random bytes are drawn in blocks: one randomFillSync per 256 ids instead of one per id.
const pool = Buffer.alloc(16 * 256);
let poolOffset = pool.length;

function randomBlock(): Buffer {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 16;
  return pool.subarray(poolOffset - 16, poolOffset);
}

export function ulid(now = Date.now()): string {
  const time = ulidTimePrefix(now);
  const random = randomBlock();
  let rest = '';
  for (let i = 0; i < 16; i++) rest += CROCKFORD[random[i] & 31];
  return time + rest;
}

/** The first 10 characters of every ULID made at `ms` or later sort at or after this: a range bound on time. */
export function ulidTimePrefix(ms: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

export const newWebhookId = (now?: number) => `wh_${ulid(now)}`;
export const newEventId = (now?: number) => `evt_${ulid(now)}`;
export const newDeliveryId = (now?: number) => `dlv_${ulid(now)}`;

/** 256 random bits: the strength of the HMAC-SHA256 key; the prefix lets secret scanners spot leaks. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The creation time (ms) in an id made by this file (`evt_`, `dlv_`, `wh_` + ULID), or undefined. */
export function idTime(id: string): number | undefined {
  const m = /^[a-z]+_([0-9A-HJKMNP-TV-Z]{10})[0-9A-HJKMNP-TV-Z]{16}$/.exec(id);
  if (!m) return undefined;
  let t = 0;
  for (const c of m[1]) t = t * 32 + CROCKFORD.indexOf(c);
  return t;
}
