// A page built as a front-end team builds it: `vite build` (production, Vite's defaults) of an index.html
// and its one module, `main.js`, in a folder whose node_modules the caller has set up (links into the
// repository, or an installed project). Every warning is caught, through Vite's logger and Rollup's onwarn,
// for tests that hold a page to zero of them.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, createLogger, defaultClientConditions, type Rollup } from 'vite';

export interface PageBuild {
  /** Every warning (and error line) Vite printed or Rollup raised. */
  warnings: string[];
  /** The built page's folder (index.html and assets/). */
  out: string;
  /** Bytes of the JavaScript written. */
  jsBytes: number;
  /** Absolute ids of every module bundled (`\0`-prefixed for virtual ones). */
  modules: string[];
}

const INDEX_HTML = '<!doctype html>\n<html>\n  <body>\n    <script type="module" src="/main.js"></script>\n  </body>\n</html>\n';

/** `conditions`: export conditions tried before the browser's (`sfc-source` resolves this repository's packages to their sources). */
export async function buildVitePage(dir: string, main: string, options: { conditions?: string[] } = {}): Promise<PageBuild> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(dir, 'main.js'), main);
  const warnings: string[] = [];
  const logger = createLogger('warn', { allowClearScreen: false });
  logger.warn = (message) => void warnings.push(message);
  logger.warnOnce = (message) => void warnings.push(message);
  logger.error = (message) => void warnings.push(message);
  // As `vite build` runs from a shell: Vite reads production from NODE_ENV, which vitest sets to `test`;
  // that silences the production-only warnings ("externalized for browser compatibility" among them).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const result = await build({
    root: dir,
    configFile: false,
    envFile: false,
    mode: 'production',
    customLogger: logger,
    resolve: { conditions: [...(options.conditions ?? []), ...defaultClientConditions] },
    build: { outDir: 'dist', emptyOutDir: true, rollupOptions: { onwarn: (warning) => void warnings.push(`rollup: ${warning.message}`) } },
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  });
  const output = (Array.isArray(result) ? result[0] : (result as Rollup.RollupOutput)).output;
  const chunks = output.filter((o): o is Rollup.OutputChunk => o.type === 'chunk');
  return {
    warnings,
    out: path.join(dir, 'dist'),
    jsBytes: chunks.reduce((sum, c) => sum + Buffer.byteLength(c.code), 0),
    modules: chunks.flatMap((c) => c.moduleIds),
  };
}
