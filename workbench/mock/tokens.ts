// Strict-auth mode: POST /auth/anonymous issues real, unique tokens and only those open the Bearer
// operations. The static example's token stays valid in the default mode so copy-paste works.
import { randomBytes, randomUUID } from 'node:crypto';

// Bounded so a long-running mock hit by a load test cannot grow without limit; oldest go first.
const MAX_TOKENS = 100_000;

export class TokenRegistry {
  private readonly tokens = new Set<string>();

  has(token: string): boolean {
    return this.tokens.has(token);
  }

  issue(): string {
    const token = `mock_${randomBytes(24).toString('base64url')}`;
    this.tokens.add(token);
    if (this.tokens.size > MAX_TOKENS) this.tokens.delete(this.tokens.values().next().value as string);
    return token;
  }

  /**
   * Replaces the example's tokens (and user id) in an auth response body with fresh ones and
   * registers the access token. Bodies without `content.access_token` are returned unchanged.
   */
  rewriteAuthBody(body: Buffer): Buffer {
    let parsed: any;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return body;
    }
    const content = parsed?.content;
    if (!content || typeof content !== 'object' || typeof content.access_token !== 'string') return body;
    content.access_token = this.issue();
    if (typeof content.refresh_token === 'string') content.refresh_token = `mock_refresh_${randomBytes(24).toString('base64url')}`;
    if (content.user && typeof content.user === 'object' && typeof content.user.id === 'string') content.user.id = randomUUID();
    return Buffer.from(JSON.stringify(parsed));
  }
}

/** The operation that hands out tokens: the contract's anonymous login. */
export function issuesTokens(method: string, path: string): boolean {
  return method === 'post' && path === '/auth/anonymous';
}
