// One line per request on stderr: method, path, status, milliseconds. Headers are never printed and
// query values that can carry credentials (tokens, keys, OTPs) are replaced, so logs can be shared.

export type LogSink = (line: string) => void;

export interface RequestLogger {
  log(method: string, rawUrl: string, status: number, ms: number): void;
  /** Free-text lines (start-up, warnings), same sink. */
  info(message: string): void;
}

const SENSITIVE = /token|key|secret|otp|pass|auth|signature|session|credential|cookie/i;
const MAX_PATH = 300;

/** The URL as it may be printed: credential-like query values redacted, control characters escaped. */
export function redactUrl(rawUrl: string): string {
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
  // eslint-disable-next-line no-control-regex
  out = out.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return out.length > MAX_PATH ? `${out.slice(0, MAX_PATH)}…` : out;
}

export function createRequestLogger(options: { quiet?: boolean; sink?: LogSink } = {}): RequestLogger {
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
    log(method, rawUrl, status, ms) {
      push(`${method} ${redactUrl(rawUrl)} ${status} ${ms.toFixed(1)}ms\n`);
    },
    info(message) {
      push(`${message}\n`);
    },
  };
}
