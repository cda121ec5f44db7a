// Serves the built documentation site (`docs/site/`, made by `npm run docs`) under `/docs`.
// Paths are decoded once, normalised, and must stay inside the site folder; anything else is a 404
// envelope, so `/docs/../package.json` and encoded variants cannot escape.
// Compression: `npm run docs` writes a brotli (`<file>.br`) and a gzip (`<file>.gz`) copy beside every
// text file of 1 KB or more (scripts/docs/precompress.ts), so a request costs no compression here; the
// copy the request's Accept-Encoding prefers (q-values; `identity` and `*` as RFC 9110 says) is sent with
// its own Content-Length and ETag and `Vary: Accept-Encoding`. A copy older than its file is ignored (the
// file is sent as is). ETags are the file's size and modification time (plus the coding), a matching
// If-None-Match is a 304; names with a content hash (`redoc.standalone.<hex>.js`) are cached for a year as
// immutable, everything else (the pages) revalidates every time (`no-cache`).
import path from 'node:path';
import { respond, type Exchange } from '../engine/exchange.js';
import { errorResponse, fail } from '../http/errors.js';

/** What is at a path of the site: a file (its size and modification time) or a folder. */
export type SiteEntry = { kind: 'file'; size: number; mtimeMs: number } | { kind: 'folder' };

/**
 * The engine's port to the built site's files: paths are relative to the site's root, `/`-separated,
 * normalised, never `..` ('' is the root). The node implementation (adapters/node-files.ts) reads a
 * folder; the engine itself imports no file system.
 */
export interface SiteFiles {
  stat(relative: string): Promise<SiteEntry | undefined>;
  /** The file's bytes, streamed; a read error errors the stream (the transport then drops the connection). */
  read(relative: string): ReadableStream<Uint8Array>;
}

interface FileStat {
  size: number;
  mtimeMs: number;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.yml': 'application/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Handles `/docs` and `/docs/...`; returns undefined for other paths. */
export async function serveDocs(files: SiteFiles, x: Exchange, pathname: string): Promise<Response | undefined> {
  if (pathname !== '/docs' && !pathname.startsWith('/docs/')) return undefined;
  if (x.method !== 'GET' && x.method !== 'HEAD') {
    return errorResponse(x, fail(405, 'method_not_allowed', `${x.method} is not allowed on /docs; use GET.`, [], { allow: 'GET, HEAD' }));
  }
  const siteExists = (await files.stat('').catch(() => undefined))?.kind === 'folder';
  if (!siteExists) {
    return errorResponse(x, fail(404, 'not_found', 'The documentation site is missing: the storefront-contract-tools package ships it (reinstall it); in a clone of the repository, run `npm run docs`, then reload /docs.'));
  }
  if (pathname === '/docs') return respond(x, 301, { location: '/docs/', 'content-length': '0' });
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice('/docs/'.length));
  } catch {
    return errorResponse(x, fail(404, 'not_found', 'No such documentation page.'));
  }
  if (relative.includes('\0')) return errorResponse(x, fail(404, 'not_found', 'No such documentation page.'));
  // Normalised under a leading slash, `..` cannot climb above the site's root.
  let target = path.posix.normalize('/' + relative).slice(1).replace(/\/+$/, '');
  let info = await files.stat(target).catch(() => undefined);
  if (info?.kind === 'folder') {
    target = target ? `${target}/index.html` : 'index.html';
    info = await files.stat(target).catch(() => undefined);
  }
  if (info?.kind !== 'file') return errorResponse(x, fail(404, 'not_found', `No documentation page at ${pathname.slice(0, 200)}.`));
  const ext = path.posix.extname(target).toLowerCase();
  const choice = await chooseCoding(files, target, info, ext, x.headers['accept-encoding']);
  if (!choice) {
    return errorResponse(x, fail(406, 'not_acceptable', `Accept-Encoding refuses every coding of ${pathname.slice(0, 200)}: it is available as ${['identity', ...(await siblings(files, target, info)).map((c) => c.coding)].join(', ')}.`));
  }
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}${choice.coding ? `-${choice.coding}` : ''}"`;
  const headers: Record<string, string> = {
    etag,
    'cache-control': HASHED_NAME.test(path.posix.basename(target)) ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(COMPRESSIBLE.has(ext) ? { vary: 'Accept-Encoding' } : {}),
  };
  if (matchesEtag(x.headers['if-none-match'], etag)) return respond(x, 304, headers);
  return respond(
    x,
    200,
    {
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'content-length': String(choice.size),
      ...(choice.coding ? { 'content-encoding': choice.coding } : {}),
      ...headers,
      'x-content-type-options': 'nosniff',
    },
    x.method === 'HEAD' ? null : files.read(choice.file),
  );
}

/** Text files, which the docs build precompresses; images and fonts are compressed already. */
export const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.yaml', '.yml', '.svg', '.txt', '.map']);
/** The precompressed copies beside a file, in the order preferred at equal q-values. */
export const PRECOMPRESSED = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;
/** A file name carrying its content's hash (`name.<8+ hex>.ext`): its bytes never change under that name. */
const HASHED_NAME = /\.[0-9a-f]{8,}\.[a-z0-9]+$/i;

type Coding = (typeof PRECOMPRESSED)[number]['coding'];

/** The precompressed copies of `file` on disk, not older than the file. */
async function siblings(files: SiteFiles, file: string, info: FileStat): Promise<Array<{ coding: Coding; file: string; size: number }>> {
  const found = await Promise.all(
    PRECOMPRESSED.map(async ({ coding, suffix }) => {
      const s = await files.stat(file + suffix).catch(() => undefined);
      return s?.kind === 'file' && s.mtimeMs >= info.mtimeMs ? { coding, file: file + suffix, size: s.size } : undefined;
    }),
  );
  return found.filter((f) => f !== undefined);
}

/**
 * The representation to send: the acceptable coding of highest q-value that exists (brotli before gzip
 * before identity at equal q), identity when the request names none; undefined when Accept-Encoding refuses
 * identity and every available coding (a 406).
 */
async function chooseCoding(files: SiteFiles, file: string, info: FileStat, ext: string, header: string | undefined): Promise<{ coding?: Coding; file: string; size: number } | undefined> {
  const identity = { file, size: info.size };
  if (header === undefined) return identity;
  const q = acceptEncoding(header);
  const available = COMPRESSIBLE.has(ext) ? await siblings(files, file, info) : [];
  const candidates = [...available.map((c) => ({ ...c, q: q(c.coding) })), { ...identity, coding: undefined, q: q('identity') }].filter((c) => c.q > 0);
  // A stable sort keeps the preference order among equal q-values.
  candidates.sort((a, b) => b.q - a.q);
  const best = candidates[0];
  return best ? { coding: best.coding, file: best.file, size: best.size } : undefined;
}

/**
 * Accept-Encoding as a q-value per coding (RFC 9110 12.5.3): a named coding's q, else `*`'s, else 0. Identity
 * not named is acceptable unless `*;q=0` refuses it, as the least preferred choice (Number.MIN_VALUE):
 * `br;q=0.5` asks for brotli over the plain file, not the other way round.
 */
export function acceptEncoding(header: string): (coding: string) => number {
  const named = new Map<string, number>();
  for (const part of header.split(',')) {
    const [token, ...params] = part.split(';').map((p) => p.trim());
    if (!token) continue;
    let weight = 1;
    for (const param of params) {
      const m = /^q\s*=\s*([0-9](?:\.[0-9]{0,3})?)$/i.exec(param);
      if (m) weight = Math.min(1, Number(m[1]));
      else if (/^q\s*=/i.test(param)) weight = 0; // a q-value that is not one: not taken as acceptable
    }
    named.set(token.toLowerCase(), weight);
  }
  const star = named.get('*');
  return (coding) => named.get(coding) ?? (coding === 'identity' ? (star === 0 ? 0 : Number.MIN_VALUE) : (star ?? 0));
}

/** If-None-Match against the representation's ETag (the weak comparison RFC 9110 asks for it; `*` matches). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
