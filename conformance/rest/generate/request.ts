// One generated request, as data (so fast-check can shrink it), and what is sent and printed from it:
// the HTTP request and a `curl` line that reproduces it with the credentials left as shell variables.
import type { OutgoingRequest } from '../../rules/observations/rest.js';
import type { OperationSpec } from './operation-specs.js';

export type CaseKind = 'valid' | 'invalid' | 'security';

/** The credentials a case sends: the run's own, none, or a stated wrong form. */
export type Credentials = 'valid' | 'none' | 'malformed' | 'unknown' | 'other-scheme';

export interface GeneratedRequest {
  kind: CaseKind;
  /** What makes it invalid (or which credentials variant): one line for the report. */
  label: string;
  pathParams: Record<string, string>;
  /** undefined: the parameter is not sent; an array: repeated (form, explode). */
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | undefined>;
  /** undefined: no body; `raw`: these bytes exactly (malformed JSON, another content type). */
  body?: { json: unknown } | { raw: string; contentType: string };
  credentials: Credentials;
  /** The answer the contract requires: `accepted` (not refused as invalid), or the refusal status. */
  expect: 'accepted' | 400 | 401 | 413 | 415;
  /** Ids in this request the world did not provide: the target may not hold them (a 404 is correct). */
  unknownIds: boolean;
  /** The broken constraint is designed here, not stated by the platform (invalid cases). */
  designed?: boolean;
}

export interface Target {
  /** `http://host:port` + the API's base path for the store: everything before the operation's path. */
  apiBase: string;
  /** The path part of `apiBase` (`/api/v1/demo-store/storefront`). */
  apiBasePath: string;
  apiKey?: string;
  token?: string;
}

const UNKNOWN_TOKEN = 'sfc-generated-unknown-token-0000000000';
/**
 * The "API key of no store": not a sandbox key (those are `sk_test_` + an HMAC of the store id, see
 * workbench/sandbox/keys.ts), and never the run's own key (test/sandbox/store-keys.test.ts sends it).
 */
export const UNKNOWN_API_KEY = 'sk_generated_unknown_key_0000';

export function toOutgoing(op: OperationSpec, req: GeneratedRequest, target: Target): OutgoingRequest {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(req.pathParams[name] ?? ''));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(req.query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name.toLowerCase()] = value;
  Object.assign(headers, credentialHeaders(op, req.credentials, target));
  let body: string | undefined;
  if (req.body && 'raw' in req.body) {
    body = req.body.raw;
    headers['content-type'] = req.body.contentType;
  } else if (req.body) {
    body = JSON.stringify(req.body.json);
    headers['content-type'] = op.body?.contentType ?? 'application/json';
  }
  const query = search.toString();
  return { method: op.method.toUpperCase(), url: `${target.apiBase}${path}${query ? `?${query}` : ''}`, headers, body };
}

function credentialHeaders(op: OperationSpec, credentials: Credentials, target: Target): Record<string, string> {
  const out: Record<string, string> = {};
  for (const scheme of op.security) {
    if (credentials === 'none') continue;
    if (scheme.kind === 'bearer') {
      if (credentials === 'valid') out.authorization = `Bearer ${target.token ?? ''}`;
      else if (credentials === 'malformed') out.authorization = 'Basic c2ZjOnNmYw==';
      else if (credentials === 'unknown') out.authorization = `Bearer ${UNKNOWN_TOKEN}`;
      else if (credentials === 'other-scheme' && target.apiKey) out['x-api-key'] = target.apiKey;
    } else if (scheme.in === 'header') {
      const name = scheme.name.toLowerCase();
      if (credentials === 'valid') out[name] = target.apiKey ?? '';
      else if (credentials === 'malformed') out[name] = 'not a key';
      else if (credentials === 'unknown') out[name] = target.apiKey === UNKNOWN_API_KEY ? `${UNKNOWN_API_KEY}_1` : UNKNOWN_API_KEY;
      else if (credentials === 'other-scheme' && target.token) out.authorization = `Bearer ${target.token}`;
    }
  }
  return out;
}

/**
 * A shell line that sends the same request. Credentials become `$STOREFRONT_API_KEY` and `$TOKEN`
 * (never printed); everything else is single-quoted as sent.
 */
export function curlLine(request: OutgoingRequest, target: Target): string {
  const mask = (text: string) => {
    let out = text;
    if (target.apiKey) out = out.split(target.apiKey).join('$STOREFRONT_API_KEY');
    if (target.token) out = out.split(target.token).join('$TOKEN');
    return out;
  };
  const quote = (text: string) => {
    const masked = mask(text);
    // Variables must expand: double quotes, with what the shell would interpret escaped.
    if (masked !== text) return `"${masked.replace(/(["\\`])/g, '\\$1').replace(/\$(?!STOREFRONT_API_KEY|TOKEN)/g, '\\$')}"`;
    return `'${text.replace(/'/g, `'\\''`)}'`;
  };
  const parts = ['curl', '-sS', '-X', request.method, quote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) if (name !== 'accept') parts.push('-H', quote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return parts.join(' ');
}
