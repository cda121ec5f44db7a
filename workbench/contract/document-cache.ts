// The cache of dereferenced documents: what model.ts's dereferenceFile makes of a document (the document
// with every `$ref` replaced, and every file it reaches), kept as JSON with its sharing (shared-graph.ts)
// and keyed by content, so a start-up that finds its entry skips YAML parsing and `$ref` resolution (about a
// third of the mock's start-up). Never stale: an entry names every file the document reached with its
// SHA-256, and it is used only when every one of those files still has that hash; any edit to any of them
// (or a file gone) is a miss, which parses again and writes the new entry.
//
// Where entries are looked for, in order:
//   <package>/dist/contract-cache/    written by `npm run build` for the shipped documents (read only)
//   the cache directory               $STOREFRONT_CONTRACT_CACHE_DIR, else node_modules/.cache/storefront-contract
//                                     (the tools' cache folder: cache-dir.ts)
//                                     of the project (the nearest node_modules above the package, or the
//                                     clone's own); misses are written there
// STOREFRONT_CONTRACT_CACHE_DIR=off turns the cache off. Entries are named by the SHA-256 of the entry format
// and the document's own bytes, and hold paths relative to the document's folder, so an entry written in a
// clone or at build time serves an installed copy too. At most MAX_ENTRIES stay in the cache directory
// (the least recently used go); writes are atomic (a temporary file renamed), and a cache that cannot be
// read or written is skipped without a word: it only ever saves time.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { toolsCacheDir } from './cache-dir.js';
import { assetsRoot } from './files.js';
import { decodeShared, encodeShared, type SharedGraph } from './shared-graph.js';

/** Changes whenever what an entry holds changes (the encoding, or what dereferenceFile returns). */
const FORMAT = 'sfc-dereferenced-v1';
const MAX_ENTRIES = 32;
export const CACHE_ENV = 'STOREFRONT_CONTRACT_CACHE_DIR';

export interface Dereferenced {
  document: Record<string, any>;
  /** Every file the document reaches (itself included), by absolute path. */
  files: Map<string, unknown>;
}

interface Entry {
  format: string;
  /** The document's file name inside its folder. */
  document: string;
  /** Every file the document reached, relative to its folder, with the SHA-256 (hex) of its bytes. */
  files: Record<string, string>;
  graph: SharedGraph;
}

/** How the last loads went, for tests and the bench: hits (shipped or cache dir), misses (parsed), writes. */
export const documentCacheStats = { hits: 0, misses: 0, writes: 0 };

/** The folder for entries written at run time, or undefined when the cache is off. */
export function documentCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env[CACHE_ENV];
  if (chosen === 'off') return undefined;
  if (chosen) return path.resolve(chosen);
  // Installed: the project's node_modules (the outermost, not a folder nested inside a package).
  const parts = assetsRoot.split(path.sep);
  const installed = parts.indexOf('node_modules');
  if (installed > 0) return toolsCacheDir(parts.slice(0, installed + 1).join(path.sep));
  for (let dir = assetsRoot; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules'))) return toolsCacheDir(path.join(dir, 'node_modules'));
    if (path.dirname(dir) === dir) return toolsCacheDir(os.homedir());
  }
}

/** Where `npm run build` puts the shipped documents' entries inside the tools package. */
export const shippedCacheDir = path.join(assetsRoot, 'dist/contract-cache');

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** The entry's file name for a document with these bytes. */
export function entryName(documentBytes: Uint8Array): string {
  return `${sha256(Buffer.concat([Buffer.from(`${FORMAT}\n`), documentBytes]))}.json`;
}

/**
 * `file` dereferenced by `parse` (model.ts's dereferenceFile), from the cache when an entry matches every
 * file's content, else parsed and written to the cache directory.
 */
export async function cachedDereference(file: string, parse: (file: string) => Promise<Dereferenced>, env: NodeJS.ProcessEnv = process.env): Promise<Dereferenced> {
  const cacheDir = documentCacheDir(env);
  if (!cacheDir) return parse(file);
  const bytes = await readFile(file).catch(() => undefined);
  if (!bytes) return parse(file); // the parser says what is wrong with the path
  const name = entryName(bytes);
  for (const dir of [shippedCacheDir, cacheDir]) {
    const hit = await readEntry(path.join(dir, name), file, bytes);
    if (hit) {
      documentCacheStats.hits++;
      if (dir === cacheDir) {
        const now = new Date();
        utimes(path.join(dir, name), now, now).catch(() => undefined); // least recently used goes first
      }
      return hit;
    }
  }
  documentCacheStats.misses++;
  const parsed = await parse(file);
  await writeEntry(cacheDir, name, file, parsed).catch(() => undefined);
  return parsed;
}

async function readEntry(entryFile: string, file: string, bytes: Buffer): Promise<Dereferenced | undefined> {
  const text = await readFile(entryFile, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let entry: Entry;
  try {
    entry = JSON.parse(text) as Entry;
  } catch {
    return undefined;
  }
  if (entry?.format !== FORMAT || entry.document !== path.basename(file) || !entry.files || !entry.graph) return undefined;
  const folder = path.dirname(file);
  const own = sha256(bytes);
  const current = await Promise.all(
    Object.entries(entry.files).map(async ([relative, hash]) => {
      const absolute = path.resolve(folder, relative);
      if (absolute === file) return own === hash;
      const content = await readFile(absolute).catch(() => undefined);
      return content !== undefined && sha256(content) === hash;
    }),
  );
  if (!current.every(Boolean)) return undefined;
  try {
    const { root, parts } = decodeShared(entry.graph.root, entry.graph.shared, entry.graph.parts);
    return { document: root as Record<string, any>, files: new Map(Object.entries(parts).map(([relative, value]) => [path.resolve(folder, relative), value])) };
  } catch {
    return undefined;
  }
}

/** Encodes a parsed document as an entry (its files hashed as they are now on disk). */
export async function encodeEntry(file: string, parsed: Dereferenced): Promise<Entry> {
  const folder = path.dirname(file);
  const relative = (absolute: string) => path.relative(folder, absolute).split(path.sep).join('/');
  const files: Record<string, string> = {};
  for (const absolute of parsed.files.keys()) files[relative(absolute)] = sha256(await readFile(absolute));
  const parts = Object.fromEntries([...parsed.files].map(([absolute, value]) => [relative(absolute), value]));
  return { format: FORMAT, document: path.basename(file), files, graph: encodeShared(parsed.document, parts) };
}

/** Writes the entry of `file` into `dir` atomically; keeps at most MAX_ENTRIES there. */
export async function writeEntry(dir: string, name: string, file: string, parsed: Dereferenced): Promise<void> {
  const text = JSON.stringify(await encodeEntry(file, parsed));
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, text);
    await rename(tmp, path.join(dir, name));
    documentCacheStats.writes++;
  } finally {
    await rm(tmp, { force: true });
  }
  await prune(dir, name);
}

async function prune(dir: string, keep: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => n !== keep && /^[0-9a-f]{64}\.json$/.test(n));
  if (names.length < MAX_ENTRIES) return;
  const aged = await Promise.all(names.map(async (n) => ({ n, at: (await stat(path.join(dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })));
  aged.sort((a, b) => a.at - b.at);
  await Promise.all(aged.slice(0, aged.length - (MAX_ENTRIES - 1)).map(({ n }) => rm(path.join(dir, n), { force: true })));
}
