// A minimal npm registry on loopback, for installs "from a published version" without publishing: the
// packages given as tarballs are served as published (their packument with the manifest of the tarball,
// dist.tarball, dist.integrity, and the tarball itself), and any other package of this repository's lock
// has a packument of its one locked version (its tarball then comes from npm's cache, by integrity, as
// when a real registry has answered before). Every request is logged, so a test can say what npm had to
// look up. `npm install --registry <url>` (or npm_config_registry) reads it as it reads registry.npmjs.org.
//
// Chosen over verdaccio (a full registry: about 200 packages more in the lock, storage, auth, uplinks to
// configure off, seconds to start) because an install needs only two routes: GET /<name> and GET the tarball.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { repoRoot } from '../../scripts/lib/repo.js';

export interface Registry {
  /** The registry's address, ending in a slash. */
  url: string;
  /** Every request, `GET /<path>` with its status. */
  requests: Array<{ path: string; status: number }>;
  /** The packages whose packument was asked for. */
  looked: () => string[];
  close(): Promise<void>;
}

interface Published {
  manifest: Record<string, unknown> & { name: string; version: string };
  file: string;
  integrity: string;
  shasum: string;
}

const MANIFEST_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines', 'os', 'cpu', 'libc'];

function readPublished(file: string): Published {
  const bytes = readFileSync(file);
  const manifest = JSON.parse(execFileSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }));
  // As registry.npmjs.org does: a version whose tarball holds a shrinkwrap is marked, and npm then uses it.
  manifest._hasShrinkwrap = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n').includes('package/npm-shrinkwrap.json');
  return {
    manifest,
    file,
    integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
    shasum: createHash('sha1').update(bytes).digest('hex'),
  };
}

/** A registry serving `published` (packed tarballs) as published, and the repository's locked packages' packuments. */
export async function startRegistry(published: string[]): Promise<Registry> {
  const packages = new Map(published.map(readPublished).map((p) => [p.manifest.name, p]));
  const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')).packages as Record<string, Record<string, unknown> & { version?: string; integrity?: string }>;
  const requests: Registry['requests'] = [];
  let base = '';
  const tarballUrl = (name: string, version: string) => `${base}${name}/-/${name.split('/').pop()}-${version}.tgz`;

  const packument = (name: string): object | undefined => {
    const own = packages.get(name);
    if (own) {
      const { manifest } = own;
      return doc(name, manifest.version, { ...manifest, dist: { tarball: tarballUrl(name, manifest.version), integrity: own.integrity, shasum: own.shasum } });
    }
    const locked = lock[`node_modules/${name}`];
    if (!locked?.version || !locked.integrity || locked.link) return undefined;
    const fields = Object.fromEntries(MANIFEST_FIELDS.filter((f) => locked[f] !== undefined).map((f) => [f, locked[f]]));
    return doc(name, locked.version, { name, version: locked.version, ...fields, dist: { tarball: tarballUrl(name, locked.version), integrity: locked.integrity } });
  };
  const doc = (name: string, version: string, manifest: object) => ({ name, 'dist-tags': { latest: version }, versions: { [version]: { _id: `${name}@${version}`, ...manifest } } });

  const server: Server = createServer((req, res) => {
    const url = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).slice(1);
    const send = (status: number, body: string | Buffer, type = 'application/json') => {
      requests.push({ path: url, status });
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET') return send(405, '{"error":"read-only registry"}');
    const tarball = /^(.+)\/-\/[^/]+-(\d[^/]*)\.tgz$/.exec(url);
    if (tarball) {
      const own = packages.get(tarball[1]);
      if (own && own.manifest.version === tarball[2]) return send(200, readFileSync(own.file), 'application/octet-stream');
      return send(404, '{"error":"not found"}');
    }
    const doc = packument(url);
    return doc ? send(200, JSON.stringify(doc)) : send(404, '{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: base,
    requests,
    looked: () => [...new Set(requests.filter((r) => !r.path.includes('/-/')).map((r) => r.path))].sort(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
