// npx tsx scripts/build-msw-browser.ts [--out <file>]   (npm run build writes it into the tools package)
// Bundles the sandbox's browser build (workbench/msw/browser.ts) with esbuild: the workbench's own
// pipeline, sandbox and clocks, for the page that MSW's worker forwards requests to. What Node gives the
// tools at run time is given at build time instead:
// - the storefront document, read and dereferenced here by workbench/contract/model.ts's own
//   dereferenceFile, embedded with its sharing (workbench/contract/shared-graph.ts) and
//   served to the unchanged contract model by a stand-in of the parser (browser/ref-parser.ts);
// - contract/files.ts by browser/files.ts (names, not folders), contract/document-cache.ts by
//   browser/document-cache.ts (no cache: the document is embedded), Node's built-ins by browser/crypto.ts
//   (SHA-256 and randomness, the same digests as Node's), browser/buffer.ts (the `buffer` package, injected
//   as the global Buffer) and browser/node-builtins.ts (throwing stand-ins nothing calls in the page),
//   `node:path` by path-browserify.
// `msw` stays an import: the app's own copy (a peer dependency of the tools) provides `http`.
import { build, type Metafile, type Plugin } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { dereferenceFile } from '../workbench/contract/model.js';
import { encodeShared } from '../workbench/contract/shared-graph.js';
import { documents, repoRoot } from './lib/repo.js';

const require = createRequire(import.meta.url);
const here = (file: string) => path.join(repoRoot, 'workbench/msw/browser', file);
const ENTRY = path.join(repoRoot, 'workbench/msw/browser.ts');
const FILES_MODULE = path.join(repoRoot, 'workbench/contract/files.ts');
const CACHE_MODULE = path.join(repoRoot, 'workbench/contract/document-cache.ts');
const LIBRARY_DIRS = ['src', 'generated'].map((dir) => `${path.join(repoRoot, dir)}${path.sep}`);

/** Node built-ins the storefront path imports, and what stands in for each in the page. */
const STAND_INS: Record<string, string> = {
  'node:crypto': here('crypto.ts'),
  'node:fs': here('node-builtins.ts'),
  'node:fs/promises': here('node-builtins.ts'),
  'node:net': here('node-builtins.ts'),
  'node:module': here('node-builtins.ts'),
  'node:url': here('node-builtins.ts'),
  'node:path': require.resolve('path-browserify'),
  '@apidevtools/json-schema-ref-parser': here('ref-parser.ts'),
};

const inRepo = (file: string) => path.relative(repoRoot, file).split(path.sep).join('/');

/** The storefront document as the contract model reads it (its own dereferenceFile), with every file it reaches, by path inside the repository. */
export async function embeddedContract(): Promise<{ document: string; shared: unknown[]; root: unknown; parts: Record<string, unknown> }> {
  const { document, files } = await dereferenceFile(documents.storefront);
  const parts = Object.fromEntries([...files].map(([file, value]) => [inRepo(file), value]));
  return { document: inRepo(documents.storefront), ...encodeShared(document, parts) };
}

function standIns(embedded: string): Plugin {
  return {
    name: 'sfc-browser-stand-ins',
    setup(b) {
      b.onResolve({ filter: /^(node:|@apidevtools\/json-schema-ref-parser$)/ }, (args) => {
        const target = STAND_INS[args.path];
        return target ? { path: target } : { errors: [{ text: `${args.path} (imported by ${path.relative(repoRoot, args.importer)}) has no stand-in in the sandbox's browser build: add one to STAND_INS in scripts/build-msw-browser.ts` }] };
      });
      b.onResolve({ filter: /^(crypto|fs|http|net|path|module|url|perf_hooks)$/ }, (args) => ({ errors: [{ text: `${args.path} without node: (imported by ${args.importer}): import it as node:${args.path}` }] }));
      // contract/files.ts finds the repository's folders on disk: its browser twin names them instead.
      b.onLoad({ filter: /[\\/]workbench[\\/]contract[\\/]files\.ts$/ }, async (args) => (path.resolve(args.path) === FILES_MODULE ? { contents: await readFile(here('files.ts'), 'utf8'), loader: 'ts', resolveDir: here('.') } : undefined));
      // contract/document-cache.ts caches parsed documents on disk: a page has no disk and an embedded document.
      b.onLoad({ filter: /[\\/]workbench[\\/]contract[\\/]document-cache\.ts$/ }, async (args) => (path.resolve(args.path) === CACHE_MODULE ? { contents: await readFile(here('document-cache.ts'), 'utf8'), loader: 'ts', resolveDir: here('.') } : undefined));
      b.onResolve({ filter: /^sfc:embedded-contract$/ }, () => ({ path: 'embedded-contract', namespace: 'sfc' }));
      b.onLoad({ filter: /.*/, namespace: 'sfc' }, () => ({ contents: embedded, loader: 'js' }));
      // The library's manifest says `sideEffects: false`, so an app's bundler drops what it does not use
      // (the precompiled validators of every operation, when only describeError is imported). Resolved to
      // its sources here (the sfc-source condition), its files would fall under the repository's root
      // manifest instead: say it for them.
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.library) return undefined;
        const library = /^storefront-contract(\/|$)/.test(args.path) || (args.path.startsWith('.') && LIBRARY_DIRS.some((dir) => args.importer.startsWith(dir)));
        if (!library) return undefined;
        const resolved = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { library: true } });
        return resolved.errors.length ? { errors: resolved.errors } : { path: resolved.path, sideEffects: false };
      });
    },
  };
}

export interface BrowserSandboxBuild {
  code: string;
  bytes: number;
  gzipBytes: number;
  metafile: Metafile;
}

/** Builds the browser sandbox; writes it to `outfile` when given. */
export async function buildBrowserSandbox(options: { outfile?: string; minify?: boolean } = {}): Promise<BrowserSandboxBuild> {
  const contract = await embeddedContract();
  const manifest = JSON.parse(await readFile(path.join(repoRoot, 'packages/storefront-contract-tools/package.json'), 'utf8')) as { name: string; version: string };
  // JSON.parse of one string literal: faster to load than the same data as an object literal.
  const embedded = `export const snapshot = JSON.parse(${JSON.stringify(JSON.stringify(contract))});\nexport const toolsPackage = ${JSON.stringify({ name: manifest.name, version: manifest.version })};\n`;
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: options.minify ?? true,
    legalComments: 'none',
    conditions: ['sfc-source'],
    external: ['msw'],
    inject: [here('buffer.ts')],
    plugins: [standIns(embedded)],
    banner: { js: `// storefront-contract-tools/msw, browser build ${manifest.version}: generated by scripts/build-msw-browser.ts (npm run build); do not edit.` },
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  if (options.outfile) {
    await mkdir(path.dirname(options.outfile), { recursive: true });
    await writeFile(options.outfile, code);
  }
  return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code).length, metafile: result.metafile };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--out');
  const outfile = path.resolve(at > 0 ? process.argv[at + 1] : path.join(repoRoot, 'dist/msw/browser.js'));
  const built = await buildBrowserSandbox({ outfile });
  console.log(`build-msw-browser: ${path.relative(process.cwd(), outfile)} ${(built.bytes / 1024).toFixed(0)} kB (${(built.gzipBytes / 1024).toFixed(0)} kB gzip)`);
}
