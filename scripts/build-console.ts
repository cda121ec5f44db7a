// npx tsx --conditions=sfc-source scripts/build-console.ts --out <dir>   (npm run build writes it into the tools package)
// Bundles the workbench console's page (workbench/console/page/, Preact + htm) with the function the
// workbench itself uses in a clone (workbench/console/bundle.ts), and writes console.js and console.css to
// <dir>: the tools package's dist/console/, where workbench/console/assets.ts finds them once installed.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleConsolePage } from '../workbench/console/bundle.js';

const at = process.argv.indexOf('--out');
const out = at > 0 ? process.argv[at + 1] : undefined;
if (!out) {
  process.stderr.write('build-console: --out <dir> is required (the folder to write console.js and console.css to)\n');
  process.exit(2);
}
const { js, css } = await bundleConsolePage();
await mkdir(out, { recursive: true });
await writeFile(path.join(out, 'console.js'), js);
await writeFile(path.join(out, 'console.css'), css);
console.log(`console page: ${(js.length / 1024).toFixed(1)} kB script (${(gzipSync(js).length / 1024).toFixed(1)} kB gzip), ${(css.length / 1024).toFixed(1)} kB stylesheet`);
