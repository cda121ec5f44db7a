// Anonymous identities (createAnonymousUser): a user, an access token and a refresh token per call. Only
// SHA-256 digests of the tokens are kept (in memory and in the journal), so the data directory never
// holds a usable token. Strict auth (the default) accepts only access tokens issued here, and only on the
// store that issued them. Tokens have the workbench's `mock_` shape, which its request log redacts.
// An identity may be bound to one customer (register SF-036): the one its token created, or the one the
// back office signed in; under `--ownership strict` it reads only that customer's cards, orders and carts.
import { createHash, randomBytes } from 'node:crypto';
import type { CustomerRecord, Identity, User } from './types.js';

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
  private readonly byAccess = new Map<string, Identity>();
  private readonly perStore = new Map<string, number>();

  /** A new identity, or a later state of one already known (its binding): the same digest replaces it. */
  add(identity: Identity): void {
    const known = this.byAccess.has(identity.access_token_sha256);
    this.byAccess.set(identity.access_token_sha256, identity);
    if (!known) this.perStore.set(identity.store_id, (this.perStore.get(identity.store_id) ?? 0) + 1);
  }

  /**
   * A new user of the store; the caller journals `identity` and then calls add(). Anonymous, unless a
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

  /** Every identity, for the journal's snapshot. */
  all(): IterableIterator<Identity> {
    return this.byAccess.values();
  }

  resolve(accessToken: string): Identity | undefined {
    return this.byAccess.get(digest(accessToken));
  }

  count(storeId: string): number {
    return this.perStore.get(storeId) ?? 0;
  }
}
