// The console's page and its two files. Installed, they are the files `npm run build` bundled into the tools
// package (dist/console/console.js and console.css, beside dist/workbench/); in a clone (tsx, `npm start`)
// there are none, so the page is bundled on the first request with esbuild (bundle.ts) and kept in memory.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ConsoleBundle } from './bundle.js';

/**
 * Where the build puts the bundled page: dist/console/ of the tools package (from dist/workbench/console/).
 * Worked out when first asked, not at import: under a DOM test environment (jsdom, happy-dom: the MSW
 * handlers import the workbench there) `import.meta.url` need not be a file URL.
 */
export function builtDir(): string {
  return fileURLToPath(new URL('../../console/', import.meta.url));
}

export interface ConsoleAssets extends ConsoleBundle {
  html: Buffer;
  /** `built` (shipped in the package) or `bundled` (on first request, in a clone). */
  origin: 'built' | 'bundled';
}

/**
 * The page's icon, inline (three log lines on the header's blue): with it in the page the browser never asks
 * for /favicon.ico (whose 404 used to top the console's own log); the CSP allows `img-src data:`.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0f2a44"/><path d="M4 5h8M4 8h8M4 11h5" stroke="#fff" stroke-width="1.6"/></svg>`;
const FAVICON_URL = `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Workbench console</title>
<link rel="icon" type="image/svg+xml" href="${FAVICON_URL}">
<link rel="stylesheet" href="/console/console.css">
<script type="module" src="/console/console.js"></script>
</head>
<body>
<noscript><p>The workbench console needs JavaScript. Everything it shows is also at GET /__simulator and the Admin API.</p></noscript>
<div id="app"></div>
</body>
</html>
`;

let loading: Promise<ConsoleAssets> | undefined;

/** The page, its script and its stylesheet; read or bundled once per process. */
export function consoleAssets(): Promise<ConsoleAssets> {
  loading ??= load().catch((error) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<ConsoleAssets> {
  const html = Buffer.from(HTML);
  const built = builtDir();
  if (existsSync(`${built}console.js`)) {
    const [js, css] = await Promise.all([readFile(`${built}console.js`), readFile(`${built}console.css`)]);
    return { html, js, css, origin: 'built' };
  }
  const { bundleConsolePage } = await import('./bundle.js');
  return { html, ...(await bundleConsolePage()), origin: 'bundled' };
}
