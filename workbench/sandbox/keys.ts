// The sandbox's store API keys, made like test-mode keys: each store id has its own key, `sk_test_` + the
// first 24 hex digits (96 bits) of HMAC-SHA256(store id) under a key derived from the sandbox's seed.
//
// Why derived from the seed and not from a random secret kept in the data directory: the key must stay
// the same across restarts so that a team's CI configuration keeps working, and CI usually starts
// `npm start` without --data-dir (a fresh machine, nothing kept); the seed is what already makes the
// sandbox's world the same everywhere. The key is not a security boundary: the back office hands every
// store's key to any caller on this machine (GET /__simulator/stores/{store_id}/keys), the world is
// made-up data, and a workbench that must keep outsiders out is started with --api-key from a secret.
// What it gives is a sandbox whose auth behaves like the platform's: a key of store A is refused on
// store B, and a made-up key is refused, with the contract's 401.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SANDBOX_KEY_PREFIX = 'sk_test_';
const DIGITS = 24;

/** Which X-Api-Key values open a store of the sandbox. */
export type ApiKeyMode =
  /** Only the store's own key (`sandboxApiKey`): the default. */
  | 'per-store'
  /** Any well-formed key (`--any-api-key`, or `--lenient-auth`). */
  | 'any'
  /** Only the key(s) the workbench was started with (`--api-key`), for every store; judged by the pipeline. */
  | 'fixed';

const macKeys = new Map<string, Buffer>();

function macKey(seed: string): Buffer {
  let key = macKeys.get(seed);
  if (!key) {
    key = createHmac('sha256', 'storefront-contract sandbox store keys v1').update(seed, 'utf8').digest();
    if (macKeys.size > 64) macKeys.clear();
    macKeys.set(seed, key);
  }
  return key;
}

/**
 * The X-Api-Key of a store of the sandbox started with this seed (`--seed`; default 1): what
 * `storefront-contract mock` prints at start for `demo-store` and `GET /__simulator/stores/{store_id}/keys`
 * returns for any store. Tests and scripts call this instead of hard-coding the key.
 */
export function sandboxApiKey(storeId: string, options: { seed?: string | number } = {}): string {
  const seed = String(options.seed ?? 1);
  return `${SANDBOX_KEY_PREFIX}${createHmac('sha256', macKey(seed)).update(storeId, 'utf8').digest('hex').slice(0, DIGITS)}`;
}

/** True when `key` is the store's sandbox key (compared in constant time). */
export function isSandboxApiKey(storeId: string, key: string, seed: string | number = 1): boolean {
  const want = Buffer.from(sandboxApiKey(storeId, { seed }), 'utf8');
  const got = Buffer.from(key, 'utf8');
  return got.length === want.length && timingSafeEqual(got, want);
}
