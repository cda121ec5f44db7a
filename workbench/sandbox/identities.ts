// Anonymous identities (createAnonymousUser): a user, an access token and a refresh token per call. Only
// SHA-256 digests of the tokens are kept (in the store: ../store/world-log.ts), so the data directory never
// holds a usable token. Strict auth (the default) accepts only access tokens issued here, and only on the
// store that issued them. Tokens have the workbench's `mock_` shape, which its request log redacts.
// An identity may be bound to one customer (register SF-036): the one its token created, or the one the
// back office signed in; under `--ownership strict` it reads only that customer's cards, orders and carts.
import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { WorldLog } from '../store/world-log.js';
import type { CustomerRecord, Identity, User } from './types.js';

/** Identities held in memory in front of the store (about 600 bytes each). */
const RECENT_IDENTITIES = 10_000;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `prefix` + `length` characters from the OS's randomness (ids created at run time, not seeded). */
export function randomId(prefix: string, length = 8): string {
  const bytes = randomBytes(length);
  let s = prefix;
  for (let i = 0; i < length; i++) s += CROCKFORD[bytes[i] & 31];
  return s;
}

export const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export class Identities {
  /** Identities read or written lately, by access-token digest (a bearer request resolves its token on each call). */
  private readonly recent = new LRUCache<string, Identity>({ max: RECENT_IDENTITIES });

  constructor(private readonly log: WorldLog) {}

  /** A new identity, or a later state of one already known (its binding): the same digest replaces it. Kept in the store at once. */
  add(identity: Identity): void {
    this.log.putIdentity(identity.access_token_sha256, identity.store_id, JSON.stringify(identity));
    this.recent.set(identity.access_token_sha256, identity);
  }

  /**
   * A new user of the store; the caller keeps it with add(). Anonymous, unless a
   * customer is given (the back office's sign-in): then a logged-in user bound to that customer.
   */
  issue(storeId: string, at: string, customer?: CustomerRecord): { identity: Identity; accessToken: string; refreshToken: string } {
    const accessToken = `mock_${randomBytes(24).toString('base64url')}`;
    const refreshToken = `mock_refresh_${randomBytes(24).toString('base64url')}`;
    const user: User = {
      id: randomId('usr_'),
      is_anonymous: !customer,
      is_logged_in: !!customer,
      first_name: customer?.first_name ?? null,
      last_name: customer?.last_name ?? null,
      phone: customer?.phone ?? null,
      email: customer?.email ?? null,
      is_email_verified: customer?.is_email_verified ?? false,
      is_phone_verified: customer?.is_phone_verified ?? false,
      profile_image_url: null,
      created_at: at,
      modified_at: at,
    };
    const identity: Identity = { store_id: storeId, ...(customer ? { customer_id: customer.id } : {}), user, access_token_sha256: digest(accessToken), refresh_token_sha256: digest(refreshToken) };
    return { identity, accessToken, refreshToken };
  }

  resolve(accessToken: string): Identity | undefined {
    const sha = digest(accessToken);
    const held = this.recent.get(sha);
    if (held) return held;
    const kept = this.log.identity(sha);
    if (kept === undefined) return undefined;
    const identity = JSON.parse(kept) as Identity;
    this.recent.set(sha, identity);
    return identity;
  }

  count(storeId: string): number {
    return this.log.identityCount(storeId);
  }
}
