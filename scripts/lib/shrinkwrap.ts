// The tools package's npm-shrinkwrap.json, written into its stage by `npm run build`: the tree of the
// tools' run-time dependencies exactly as the repository's package-lock.json resolves it (what the tests
// ran), so every install of the published tools gets the same transitive versions. It is the lockfile of
// the package itself: the certify Actions extract the tools and run `npm ci` in them (npm reads a
// package's npm-shrinkwrap.json as its lockfile), which holds whatever registry or tarball they come
// from; and npm honours it when the tools are installed as a dependency from registry.npmjs.org (which
// marks such versions `_hasShrinkwrap`; npm ignores it for a tarball and on registries that do not).
//
// The library (storefront-contract, a workspace link in the lock) is in it with its own dependencies,
// pinned by version: its integrity is known only once it is published (or packed), so the entry has none;
// the Actions point it at the library's tarball when they install from tarballs.
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

export interface Shrinkwrap {
  name: string;
  version: string;
  lockfileVersion: 3;
  requires: true;
  packages: Record<string, LockEntry>;
}

/** Flags of the repository's lock that describe the repository's own tree (dev, peer, ...), recomputed here. */
const ROOT_FLAGS = ['dev', 'devOptional', 'optional', 'peer', 'extraneous'];

/** The registry's tarball address of name@version (the lock omits it when npm's omit-lockfile-registry-resolved is set). */
export function registryTarball(name: string, version: string): string {
  return `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz`;
}

/**
 * The shrinkwrap of the workspace package in `packages/<folder>`, from the lock at `lockFile`: its
 * run-time dependencies (dependencies, optionalDependencies, required peers) and theirs, each found where
 * Node would find it from the package that needs it, relocated under the package's own node_modules. A
 * dependency that is another workspace package (a link) is followed to its folder and pinned by version.
 */
export function shrinkwrapOf(lockFile: string, folder: string, manifest: { name: string; version: string }): Shrinkwrap {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, LockEntry> };
  const packages = lock.packages;
  const home = `packages/${folder}`;
  const own = packages[home];
  if (!own) throw new Error(`shrinkwrap: ${path.basename(lockFile)} has no entry ${home}: run npm install`);

  /** Where Node finds `name` from the package installed at `location`: its own node_modules, then each ancestor's. */
  const find = (location: string, name: string): string | undefined => {
    let at = location;
    for (;;) {
      const candidate = at ? `${at}/node_modules/${name}` : `node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (!at) return undefined;
      const nested = at.lastIndexOf('/node_modules/');
      at = nested !== -1 ? at.slice(0, nested) : '';
    }
  };
  const edges = (entry: LockEntry, includeOptional: boolean): string[] => [
    ...Object.keys(entry.dependencies ?? {}),
    ...(includeOptional ? Object.keys(entry.optionalDependencies ?? {}) : []),
    ...Object.keys(entry.peerDependencies ?? {}).filter((n) => !entry.peerDependenciesMeta?.[n]?.optional),
  ];
  /** Workspace folders reached through a link: folder -> the key it takes (node_modules/<name>). */
  const linked = new Map<string, string>();

  /** The locations reachable from the package, through required edges only or through every edge. */
  const reach = (includeOptional: boolean): Set<string> => {
    const seen = new Set<string>();
    const queue: Array<[string, LockEntry]> = [[home, own]];
    while (queue.length > 0) {
      const [location, entry] = queue.shift()!;
      for (const name of edges(entry, includeOptional)) {
        let found = find(location, name);
        if (!found) {
          if (entry.optionalDependencies?.[name]) continue; // an optional binary of another platform, absent from the lock
          throw new Error(`shrinkwrap: ${name}, a dependency of ${location}, is not in the lock: run npm install`);
        }
        if (packages[found].link) {
          const target = packages[found].resolved!;
          linked.set(target, `node_modules/${name}`);
          found = target;
        }
        if (!seen.has(found)) (seen.add(found), queue.push([found, packages[found]]));
      }
    }
    return seen;
  };
  const required = reach(false);
  const all = reach(true);

  const relocate = (location: string): string => {
    if (location.startsWith(`${home}/`)) return location.slice(home.length + 1);
    for (const [target, key] of linked) {
      if (location === target) return key;
      if (location.startsWith(`${target}/`)) return `${key}/${location.slice(target.length + 1)}`;
    }
    return location;
  };
  const relocated: Record<string, LockEntry> = {};
  for (const location of [...all].sort()) {
    const key = relocate(location);
    if (relocated[key]) throw new Error(`shrinkwrap: ${key} is in the tree twice (under ${home} and at the root); the tree cannot be relocated`);
    const entry = Object.fromEntries(Object.entries(packages[location]).filter(([field]) => !ROOT_FLAGS.includes(field) && field !== 'name')) as LockEntry;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    relocated[key] = {
      version: entry.version,
      // A linked workspace package is pinned by version (published from this repository, integrity unknown here).
      resolved: linked.has(location) ? registryTarball(name, entry.version!) : (entry.resolved ?? registryTarball(name, entry.version!)),
      ...entry,
      ...(required.has(location) ? {} : { optional: true }),
    };
  }
  const root: LockEntry = { name: manifest.name, version: manifest.version };
  for (const field of ['license', 'dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines']) {
    if (own[field] !== undefined) root[field] = own[field];
  }
  return { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages: { '': root, ...relocated } };
}
