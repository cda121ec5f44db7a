// Issue 30 benchmark: the docs site's storefront reference page (reference/storefront.html and every
// script and stylesheet it loads from the site, Redoc's 2.3 MB script among them) from the workbench's
// /docs, as a browser asks for it (Accept-Encoding: br, gzip; the brotli copies the docs build wrote) vs
// without Accept-Encoding (the files as they are). Bytes on the wire, and the time to fetch every asset
// one after another over loopback and decode it (brotli/gzip decompressed here, as a browser must), medians
// of rounds taken in turn. Loopback moves 3 MB in a few milliseconds, so the time row shows what the
// decoding costs, not what a real network saves; the bytes row is what a network pays for.
// The site is docs/site/, rebuilt first (npm run docs) when older than its inputs.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { median } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { siteDir } from '../../scripts/docs/pages.js';
import { createMockServer } from '../../workbench/adapters/node-http.js';
import { ensureSiteBuilt } from '../../test/docs/site-build.js';

const ROUNDS = 15;
const PAGE = 'reference/storefront.html';

/** The page's own scripts and stylesheets: `src`/`href` on script and link elements, inside the site. */
function assetsOf(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"#?]+)"[^>]*>/g)) {
    if (/^[a-z]+:|^\/\//i.test(m[1])) continue;
    found.add(path.posix.normalize(path.posix.join(path.posix.dirname(PAGE), m[1])));
  }
  return [...found].filter((p) => /\.(js|mjs|css)$/.test(p));
}

async function load(base: string, files: string[], acceptEncoding: string | undefined): Promise<{ ms: number; bytes: number; decoded: number }> {
  const started = performance.now();
  let bytes = 0;
  let decoded = 0;
  for (const file of files) {
    const res = await request(`${base}/docs/${file}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
    const body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200) throw new Error(`/docs/${file}: ${res.statusCode}`);
    const coding = res.headers['content-encoding'];
    const plain = coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body;
    bytes += body.length;
    decoded += plain.length;
  }
  return { ms: performance.now() - started, bytes, decoded };
}

const suite: BenchSuite = {
  name: 'docs',
  async run() {
    const built = await ensureSiteBuilt();
    if (built.rebuilt) process.stderr.write(`bench: docs: built docs/site in ${built.seconds.toFixed(0)} s\n`);
    const server = await createMockServer({ port: 0, host: '127.0.0.1', quiet: true, docsRoot: siteDir });
    try {
      const page = await request(`${server.url}/docs/${PAGE}`);
      const files = [PAGE, ...assetsOf(await page.body.text())];
      if (!files.some((f) => f.includes('redoc.standalone'))) throw new Error(`${PAGE} loads no Redoc script from the site: the bench would measure the wrong page`);
      const sides = { compressed: [] as number[], identity: [] as number[] };
      let compressed = { ms: 0, bytes: 0, decoded: 0 };
      let identity = { ms: 0, bytes: 0, decoded: 0 };
      for (let round = 0; round < ROUNDS + 2; round++) {
        compressed = await load(server.url, files, 'br, gzip');
        identity = await load(server.url, files, undefined);
        if (compressed.decoded !== identity.decoded) throw new Error('the compressed page decodes to other bytes than the plain one');
        if (round < 2) continue; // warm-up
        sides.compressed.push(compressed.ms);
        sides.identity.push(identity.ms);
      }
      const list = `${files.length} files (${files.join(', ')})`;
      return [
        metric({
          id: 'docs.referencePage.bytes.compressed.vs.identity',
          description: 'Bytes on the wire for the storefront reference page and its scripts and stylesheets: Accept-Encoding br, gzip (precompressed copies) vs none',
          unit: 'bytes',
          subject: { label: 'br, gzip', value: compressed.bytes },
          baseline: { label: 'identity', value: identity.bytes },
          target: { op: '<=', ratio: 0.3 },
          notes: `${list}; ${Math.round(identity.decoded / 1024)} KB decoded either way`,
        }),
        metric({
          id: 'docs.referencePage.loadMs.compressed.vs.identity',
          description: 'Time to fetch the same files one after another over loopback and decode them: compressed vs identity',
          unit: 'ms',
          subject: { label: 'br, gzip, decompressed by the client', value: Number(median(sides.compressed).toFixed(2)) },
          baseline: { label: 'identity', value: Number(median(sides.identity).toFixed(2)) },
          // Decoding must not cost more than the bytes it saves copying, within this machine's noise.
          target: { op: '<=', ratio: 1.2 },
          notes: `medians of ${ROUNDS} rounds in turn after 2 warm-ups; loopback, so this is the decoding's cost (no network to save); at 50 Mbit/s the bytes alone would take ${((compressed.bytes * 8) / 50e3).toFixed(0)} vs ${((identity.bytes * 8) / 50e3).toFixed(0)} ms`,
        }),
      ];
    } finally {
      await server.close();
    }
  },
};

export default suite;
