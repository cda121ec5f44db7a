// Redaction of secrets before anything is written: store API keys, bearer tokens, access and refresh
// tokens, OTPs. Each distinct secret becomes a stable marker (`REDACTED_access_token_1`) so the
// bindings can still follow a token from the response that issued it to the requests that use it.
import type { HarNameValue } from '../har.js';

/** JSON body keys whose string values are secrets. */
export const SECRET_BODY_KEYS = new Set(['access_token', 'refresh_token', 'otp', 'otp_token', 'api_key', 'password', 'secret', 'client_secret']);
/** Query parameters whose values are secrets. */
export const SECRET_QUERY_KEYS = new Set(['access_token', 'refresh_token', 'otp', 'otp_token', 'api_key', 'token']);
/** Headers whose whole value is a secret. */
const SECRET_HEADERS = new Set(['x-api-key', 'cookie', 'set-cookie', 'proxy-authorization']);

export const MARKER_RE = /REDACTED_[a-z_]+_\d+/g;

/**
 * Secrets a Redactor remembers: past this many, the oldest is forgotten (a long proxy session sees a new
 * token per sign-in). A forgotten secret seen again in a marked place (a header, a secret key) gets a new
 * marker; only its echo elsewhere in text, long after, would go unreplaced.
 */
export const MAX_REMEMBERED_SECRETS = 2000;

export class Redactor {
  private readonly markers = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  /** The marker standing for `value`; the first sighting decides its kind. */
  mark(kind: string, value: string): string {
    if (value === '' || /^REDACTED_[a-z_]+_\d+$/.test(value)) return value;
    let marker = this.markers.get(value);
    if (!marker) {
      const n = (this.counts.get(kind) ?? 0) + 1;
      this.counts.set(kind, n);
      marker = `REDACTED_${kind}_${n}`;
      this.markers.set(value, marker);
      if (this.markers.size > MAX_REMEMBERED_SECRETS) this.markers.delete(this.markers.keys().next().value!);
    }
    return marker;
  }

  headers(headers: HarNameValue[]): HarNameValue[] {
    return headers.map(({ name, value }) => {
      const lower = name.toLowerCase();
      if (lower === 'authorization') {
        const m = /^(\S+)\s+(.*)$/.exec(value);
        const scheme = m ? m[1] : 'Bearer';
        const kind = /^bearer$/i.test(scheme) ? 'access_token' : 'credential';
        return { name, value: m ? `${scheme} ${this.mark(kind, m[2])}` : this.mark('credential', value) };
      }
      if (SECRET_HEADERS.has(lower)) return { name, value: this.mark(lower === 'x-api-key' ? 'api_key' : 'cookie', value) };
      return { name, value: this.text(value) };
    });
  }

  query(pairs: HarNameValue[]): HarNameValue[] {
    return pairs.map(({ name, value }) => ({ name, value: SECRET_QUERY_KEYS.has(name.toLowerCase()) ? this.mark(name.toLowerCase(), value) : this.text(value) }));
  }

  /** A URL with secret query values replaced. */
  url(raw: string): string {
    const url = new URL(raw);
    for (const key of [...new Set(url.searchParams.keys())]) {
      if (!SECRET_QUERY_KEYS.has(key.toLowerCase())) continue;
      const values = url.searchParams.getAll(key).map((v) => this.mark(key.toLowerCase(), v));
      url.searchParams.delete(key);
      for (const v of values) url.searchParams.append(key, v);
    }
    return this.text(url.toString());
  }

  /** A body: JSON gets its secret keys marked; any text gets every secret seen so far replaced. */
  body(text: string, mimeType: string): string {
    if (/json/i.test(mimeType)) {
      try {
        const parsed = JSON.parse(text);
        return JSON.stringify(this.json(parsed));
      } catch {
        // Not valid JSON (malformed-body traffic): fall through to the textual pass.
      }
    }
    return this.text(text);
  }

  json(value: unknown, key?: string): unknown {
    if (typeof value === 'string') return key && SECRET_BODY_KEYS.has(key) ? this.mark(key, value) : this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.json(v, k);
      return out;
    }
    return value;
  }

  /** Replaces every secret already known wherever it occurs (echoed in a message, a URL, another header). */
  text(s: string): string {
    if (this.markers.size === 0) return s;
    let out = s;
    for (const [secret, marker] of this.markers) {
      if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(marker);
    }
    return out;
  }
}
