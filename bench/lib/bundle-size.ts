// What an import costs a bundled app: esbuild (bundle, minify, ESM, code splitting), then the bytes
// of the chunks that load with the entry (it and its static imports, not the dynamic ones), minified
// and gzipped one by one, as a server would send them.
import { build } from 'esbuild';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const SOURCEFILE = 'consumer.ts';

export interface BundleSize {
  minified: number;
  gzip: number;
  /** Every other chunk (reached by dynamic import): its inputs, gzipped size. */
  lazyChunks: Array<{ inputs: string[]; gzip: number }>;
}

/** `define`: replacements an app's bundler sets (React's `process.env.NODE_ENV`). */
export async function bundleSize(source: string, resolveDir: string, outdir: string, options: { define?: Record<string, string> } = {}): Promise<BundleSize> {
  const result = await build({
    ...options,
    stdin: { contents: source, resolveDir, loader: 'ts', sourcefile: SOURCEFILE },
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['sfc-source'],
    outdir,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((o) => outputs[o].entryPoint === SOURCEFILE)!;
  const loaded = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const output = stack.pop()!;
    if (loaded.has(output)) continue;
    loaded.add(output);
    for (const imported of outputs[output].imports) if (imported.kind === 'import-statement' && !imported.external) stack.push(imported.path);
  }
  const size: BundleSize = { minified: 0, gzip: 0, lazyChunks: [] };
  for (const file of result.outputFiles) {
    const key = path.relative(process.cwd(), file.path);
    const gzip = gzipSync(file.contents).length;
    if (loaded.has(key)) {
      size.minified += file.contents.length;
      size.gzip += gzip;
    } else {
      size.lazyChunks.push({ inputs: Object.keys(outputs[key]?.inputs ?? {}), gzip });
    }
  }
  return size;
}
