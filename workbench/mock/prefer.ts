// Prism's request controls: `Prefer: code=404, example=Name, dynamic=true, seed=x`, or the
// `__code`/`__example`/`__dynamic`/`__seed` query parameters when no Prefer header is sent
// (the same precedence as prism-http-server). Invalid values get a 400 envelope naming the control.
// `delay=800` (`__delay`) is the workbench's own: the answer, whoever gives it (the sandbox, the cached
// example, Prism), waits that many milliseconds, at most MAX_DELAY_MS (faults.ts); it is not a Prism
// control, so it never makes the sandbox step aside.
import { MockHttpError } from '../http/errors.js';
import { MAX_DELAY_MS } from './faults.js';

export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: string;
  /** Milliseconds to wait before answering (faults.ts), 0 to MAX_DELAY_MS. */
  delay?: number;
}

export function parsePreferences(header: string | string[] | undefined, query: URLSearchParams): Preferences {
  const raw: Record<string, string | undefined> = {};
  const source = Array.isArray(header) ? header.join(',') : header;
  let where: 'header' | 'query' = 'header';
  if (source !== undefined) {
    for (const part of source.split(/[,;]/)) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      const key = part.slice(0, eq).trim().toLowerCase();
      raw[key] = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    }
  } else {
    where = 'query';
    raw.code = query.get('__code') ?? undefined;
    raw.example = query.get('__example') ?? undefined;
    raw.dynamic = query.get('__dynamic') ?? undefined;
    raw.seed = query.get('__seed') ?? undefined;
    raw.delay = query.get('__delay') ?? undefined;
  }
  const prefs: Preferences = {};
  const fail = (name: string, message: string) =>
    new MockHttpError(400, 'invalid_parameter', `Invalid mock control: ${name} ${message}.`, [
      { location: where, name: where === 'header' ? 'Prefer' : `__${name}`, message: `${name} ${message}` },
    ]);
  if (raw.code !== undefined) {
    if (!/^\d{3}$/.test(raw.code)) throw fail('code', 'must be a three-digit HTTP status');
    prefs.code = Number(raw.code);
  }
  if (raw.example !== undefined) {
    if (raw.example === '') throw fail('example', 'must name an example');
    prefs.example = raw.example;
  }
  if (raw.dynamic !== undefined) {
    if (raw.dynamic !== 'true' && raw.dynamic !== 'false') throw fail('dynamic', 'must be true or false');
    prefs.dynamic = raw.dynamic === 'true';
  }
  if (raw.seed !== undefined) prefs.seed = raw.seed;
  if (raw.delay !== undefined) {
    if (!/^\d{1,9}$/.test(raw.delay)) throw fail('delay', `must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`);
    if (Number(raw.delay) > MAX_DELAY_MS) throw fail('delay', `must be at most ${MAX_DELAY_MS} milliseconds (the workbench's cap), got ${raw.delay}`);
    prefs.delay = Number(raw.delay);
  }
  return prefs;
}

/** True when a Prism control (code, example, dynamic, seed) is asked for; a delay alone is not one. */
export function hasPreferences(p: Preferences): boolean {
  return p.code !== undefined || p.example !== undefined || p.dynamic !== undefined || p.seed !== undefined;
}
