// Precompression of the built site: a brotli (`<file>.br`) and a gzip (`<file>.gz`) copy beside every text
// file of 1 KB or more, kept only when smaller than the file. The workbench's /docs
// (workbench/mock/static-docs.ts) sends the copy a request's Accept-Encoding prefers, so serving costs no
// compression at all and the first visitor waits for none. Done once here rather than on first request:
// brotli over Redoc's 2.3 MB script takes about 0.5-1 s at quality 9 on this machine (a stall the first
// page load would pay, and memory held for the copies); quality 10 and 11 take 8 to 20 s for about 8 %
// fewer bytes, more than a docs build should spend on it, so 9 with a 16 MB window it is.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { COMPRESSIBLE, PRECOMPRESSED } from '../../workbench/mock/static-docs.js';

const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export interface Precompressed {
  files: number;
  bytes: number;
  br: number;
  gzip: number;
}

/** Writes the compressed copies of every compressible file under `siteDir`; returns the totals. */
export async function precompressSite(siteDir: string): Promise<Precompressed> {
  const names = (await readdir(siteDir, { recursive: true, encoding: 'utf8' })).filter((f) => COMPRESSIBLE.has(path.extname(f).toLowerCase()));
  const totals: Precompressed = { files: 0, bytes: 0, br: 0, gzip: 0 };
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(siteDir, name);
      if (!(await stat(file)).isFile()) return;
      const bytes = await readFile(file);
      if (bytes.length < MIN_BYTES) return;
      const [br, gzipped] = await Promise.all([
        brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
        gz(bytes, { level: 9 }),
      ]);
      totals.files++;
      totals.bytes += bytes.length;
      for (const [{ suffix, coding }, out] of [[PRECOMPRESSED[0], br], [PRECOMPRESSED[1], gzipped]] as const) {
        if (out.length >= bytes.length) continue;
        await writeFile(file + suffix, out);
        totals[coding === 'br' ? 'br' : 'gzip'] += out.length;
      }
    }),
  );
  return totals;
}
