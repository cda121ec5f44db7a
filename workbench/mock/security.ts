// Enforces each operation's `security` as the contract states it, with messages that say what is
// missing and how to fix it. Prism's own check answers with the spec's static 401 example, which
// cannot tell "no header" from "wrong scheme", so the front does it instead.
import type { RequestHeaders } from '../engine/exchange.js';
import { MockHttpError, type ErrorItem } from '../http/errors.js';
import type { Caller, TokenVerdict } from '../http/extension.js';
import type { OperationModel, SecurityScheme } from './spec-model.js';

export interface SecurityContext {
  /** Judges a well-formed bearer token: true (or the holder it resolved, `{ identity }`) accepts it, a string refuses it with that reason. */
  judgeToken?: (scheme: SecurityScheme, token: string) => Exclude<TokenVerdict, undefined>;
  /** Judges a well-formed API key the same way. */
  judgeApiKey?: (scheme: SecurityScheme, key: string) => true | string;
  /** Where a client gets a bearer token, added to the "missing" message. */
  bearerHint?: string;
}

// RFC 6750 b64token; anything else after `Bearer ` is malformed.
export const BEARER_RE = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
// A store API key is an opaque printable token: no spaces, no control characters.
const API_KEY_RE = /^[\x21-\x7e]{1,512}$/;

/** The credentials that satisfied the operation's security (what `Caller` holds besides the store). */
export type Credentials = Omit<Caller, 'storeId'>;

/** The 401 to send, or the credentials of the first alternative satisfied (none for an open operation). */
export function checkSecurity(
  op: OperationModel,
  headers: RequestHeaders,
  query: URLSearchParams,
  ctx: SecurityContext,
): { denied: MockHttpError; credentials?: undefined } | { denied?: undefined; credentials: Credentials } {
  if (op.security.length === 0) return { credentials: {} };
  let firstFailure: ErrorItem[] | undefined;
  for (const alternative of op.security) {
    // An empty requirement object (`- {}`) means "anonymous allowed".
    const credentials: Credentials = {};
    const failures = alternative.map((scheme) => checkScheme(scheme, headers, query, ctx, credentials)).filter((f): f is ErrorItem => !!f);
    if (failures.length === 0) return { credentials };
    firstFailure ??= failures;
  }
  const items = firstFailure ?? [];
  const message = items.map((i) => i.message).join('; ');
  return { denied: new MockHttpError(401, 'unauthorized', capitalize(message), items, { 'www-authenticate': challengeOf(op.security[0], headers) }) };
}

/**
 * Every 401 carries a challenge (RFC 9110 15.5.2; register SF-030): `Bearer`, or `ApiKey header="<name>"`.
 * A bearer token that was sent and refused (unknown, expired, another store's) adds RFC 6750's
 * `error="invalid_token"`, a malformed header `error="invalid_request"`, so a client can tell "sign in
 * again" from "send credentials".
 */
function challengeOf(requirement: SecurityScheme[], headers: RequestHeaders): string {
  if (requirement.some((s) => s.type === 'http' && s.scheme === 'bearer')) {
    const raw = headerValue(headers, 'authorization');
    if (raw === undefined || raw.trim() === '') return 'Bearer';
    return BEARER_RE.test(raw) ? 'Bearer error="invalid_token"' : 'Bearer error="invalid_request"';
  }
  const key = requirement.find((s) => s.type === 'apiKey' && s.name);
  return key ? `ApiKey ${key.in === 'query' ? 'query' : 'header'}="${key.name}"` : 'Bearer';
}

/** The failure of one scheme, or undefined with what it accepted noted in `accepted`. */
function checkScheme(scheme: SecurityScheme, headers: RequestHeaders, query: URLSearchParams, ctx: SecurityContext, accepted: Credentials): ErrorItem | undefined {
  if (scheme.type === 'apiKey' && scheme.name) {
    const raw = scheme.in === 'query' ? query.get(scheme.name) ?? undefined : headerValue(headers, scheme.name);
    const location = scheme.in === 'query' ? 'query' : 'header';
    if (raw === undefined || raw.trim() === '') {
      return { location, name: scheme.name, message: `missing ${scheme.name} ${location}: send the store API key` };
    }
    if (!API_KEY_RE.test(raw)) {
      return { location, name: scheme.name, message: `malformed ${scheme.name} ${location}: the store API key is printable ASCII without spaces` };
    }
    const verdict = ctx.judgeApiKey?.(scheme, raw) ?? true;
    if (verdict !== true) return { location, name: scheme.name, message: verdict };
    accepted.apiKey = raw;
    return undefined;
  }
  if (scheme.type === 'http' && scheme.scheme === 'bearer') {
    const raw = headerValue(headers, 'authorization');
    if (raw === undefined || raw.trim() === '') {
      const hint = ctx.bearerHint ? ` (${ctx.bearerHint})` : '';
      return { location: 'header', name: 'Authorization', message: `missing Authorization header: send "Authorization: Bearer <token>"${hint}` };
    }
    const m = BEARER_RE.exec(raw);
    if (!m) {
      return { location: 'header', name: 'Authorization', message: 'malformed Authorization header: expected "Bearer <token>"' };
    }
    const verdict = ctx.judgeToken?.(scheme, m[1]) ?? true;
    if (typeof verdict === 'string') return { location: 'header', name: 'Authorization', message: verdict };
    accepted.token = m[1];
    if (verdict !== true) accepted.identity = verdict.identity;
    return undefined;
  }
  // Schemes the mock cannot judge (oauth2, openIdConnect, ...) are accepted rather than guessed at.
  return undefined;
}

function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1) + (s.endsWith('.') || s.endsWith(')') ? '' : '.');
}
