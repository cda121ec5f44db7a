// Serves the built documentation site (`docs/site/`, made by `npm run docs`) under `/docs`.
// Paths are decoded once, normalised, and must stay inside the site folder; anything else is a 404
// envelope, so `/docs/../package.json` and encoded variants cannot escape.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { sendEnvelope } from '../http/errors.js';

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

/** Handles `/docs` and `/docs/...`; returns false for other paths. */
export async function serveDocs(root: string, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
  if (pathname !== '/docs' && !pathname.startsWith('/docs/')) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    sendEnvelope(res, 405, 'method_not_allowed', `${req.method} is not allowed on /docs; use GET.`);
    return true;
  }
  const siteExists = await stat(root).then((s) => s.isDirectory(), () => false);
  if (!siteExists) {
    sendEnvelope(res, 404, 'not_found', 'The documentation site is missing: the storefront-contract-tools package ships it (reinstall it); in a clone of the repository, run `npm run docs`, then reload /docs.');
    return true;
  }
  if (pathname === '/docs') {
    res.writeHead(301, { location: '/docs/', 'content-length': '0' });
    res.end();
    return true;
  }
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice('/docs/'.length));
  } catch {
    sendEnvelope(res, 404, 'not_found', 'No such documentation page.');
    return true;
  }
  const file = path.resolve(root, '.' + path.posix.normalize('/' + relative));
  const inside = file === root || file.startsWith(root + path.sep);
  if (!inside || relative.includes('\0')) {
    sendEnvelope(res, 404, 'not_found', 'No such documentation page.');
    return true;
  }
  let target = file;
  let info = await stat(target).catch(() => undefined);
  if (info?.isDirectory()) {
    target = path.join(target, 'index.html');
    info = await stat(target).catch(() => undefined);
  }
  if (!info?.isFile()) {
    sendEnvelope(res, 404, 'not_found', `No documentation page at ${pathname.slice(0, 200)}.`);
    return true;
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(target).toLowerCase()] ?? 'application/octet-stream',
    'content-length': String(info.size),
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  await new Promise<void>((resolve) => {
    const stream = createReadStream(target);
    stream.on('error', () => {
      res.destroy();
      resolve();
    });
    stream.on('end', resolve);
    stream.pipe(res);
  });
  return true;
}
