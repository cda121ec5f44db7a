// One line per request on stderr: method, path, status, milliseconds. Headers are never printed and
// query values that can carry credentials (tokens, keys, OTPs) are replaced, so logs can be shared.

export type LogSink = (line: string) => void;

export interface RequestLogger {
  /** `status` is `-` when no answer was sent (a dropped connection); `note` ends the line (an injected fault). */
  log(method: string, rawUrl: string, status: number | '-', ms: number, note?: string): void;
  /** Free-text lines (start-up, warnings), same sink. */
  info(message: string): void;
}

// By name: query parameters whose name says they carry a credential.
const SENSITIVE = /token|key|secret|otp|pass|auth|signature|session|credential|cookie|jwt|bearer|code|sig$|nonce/i;
// By shape, wherever they appear: JWTs, this project's secrets and tokens, long opaque hex or base64url.
const SECRET_SHAPES = /eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*|whsec_[\w-]+|sk_[\w-]{8,}|mock_(?:refresh_)?[\w-]{16,}|\b[0-9a-f]{40,}\b|\b[\w-]{48,}\b/g;
const MAX_PATH = 300;

/**
 * The URL as it may be printed: credential-like query values redacted by name, secret-shaped values
 * and the `known` secrets (the workbench's API keys and admin tokens) redacted anywhere, control
 * characters escaped.
 */
export function redactUrl(rawUrl: string, known: readonly string[] = []): string {
  const q = rawUrl.indexOf('?');
  let out = rawUrl;
  if (q >= 0) {
    const query = rawUrl
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const key = eq < 0 ? pair : pair.slice(0, eq);
        let decoded = key;
        try {
          decoded = decodeURIComponent(key);
        } catch {
          // keep the raw key; it is only matched against the sensitive list
        }
        return eq >= 0 && SENSITIVE.test(decoded) ? `${key}=[redacted]` : pair;
      })
      .join('&');
    out = `${rawUrl.slice(0, q)}?${query}`;
  }
  out = out.replace(SECRET_SHAPES, '[redacted]');
  for (const secret of known) {
    if (secret.length < 4) continue;
    for (const spelling of new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+')])) out = out.split(spelling).join('[redacted]');
  }
  // eslint-disable-next-line no-control-regex
  out = out.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return out.length > MAX_PATH ? `${out.slice(0, MAX_PATH)}…` : out;
}

export function createRequestLogger(options: { quiet?: boolean; sink?: LogSink; knownSecrets?: readonly string[] } = {}): RequestLogger {
  const known = options.knownSecrets ?? [];
  if (options.quiet && !options.sink) return { log: () => {}, info: () => {} };
  // Lines are batched per event-loop turn: one write per turn instead of one per request keeps the
  // log cheap under load.
  let pending: string[] = [];
  const sink: LogSink = options.sink ?? ((line) => process.stderr.write(line));
  const flush = () => {
    const lines = pending;
    pending = [];
    sink(lines.join(''));
  };
  const push = (line: string) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(line);
  };
  return {
    log(method, rawUrl, status, ms, note) {
      push(`${method} ${redactUrl(rawUrl, known)} ${status} ${ms.toFixed(1)}ms${note ? ` ${note}` : ''}\n`);
    },
    info(message) {
      push(`${message}\n`);
    },
  };
}
