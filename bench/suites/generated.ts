// The generated validators and the typed client, each against its plain baseline:
//   - validating a 100-product list vs JSON.parse of it;
//   - first use of one operation's precompiled validators (a fresh process importing the module as
//     a consumer loads it) vs compiling the same schemas with Ajv in a fresh process; and the same
//     for the all-operations module, for comparison;
//   - what importing the typed client adds to a bundle vs openapi-fetch alone (esbuild), and what a
//     minimal app on it loads vs the same app on openapi-fetch (a real Vite build);
//   - requests through the typed client vs plain fetch.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import ts from 'typescript';
import { metric, type BenchSuite, type Metric } from '../lib/metric.js';
import { productListBody } from '../lib/fixtures.js';
import { alternate, median } from '../lib/alternate.js';
import { freshProcessMedians } from '../lib/fresh-process.js';
import { bundleSize } from '../lib/bundle-size.js';
import { OPENAPI_FETCH_APP, storefrontApp, viteAppSize } from '../lib/vite-bundle-size.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { bundleDocument } from '../../scripts/generate/bundle.js';
import { openapiSchemaPointers, operationSchemas } from '../../scripts/generate/validator-pointers.js';
import { validateResponse } from '../../src/validators/index.js';
import { createStorefrontClient } from '../../src/client/storefront.js';

const exec = promisify(execFile);
const work = path.join(repoRoot, 'bench/tmp/generated');
const BASE = 'https://storefront-contract.local/storefront.json';
const OPERATION = 'listProducts';

async function validatorVsParse(): Promise<Metric> {
  const bytes = JSON.stringify(await productListBody(100));
  const parsed = JSON.parse(bytes);
  if (!validateResponse('storefront', OPERATION, 200, parsed).valid) throw new Error('invalid fixture');
  const ms = alternate({
    validate: () => validateResponse('storefront', OPERATION, 200, parsed),
    parse: () => JSON.parse(bytes),
  });
  return metric({
    id: 'validator.listProducts100.vs.jsonParse',
    description: `validating a 100-product listProducts response (${(bytes.length / 1024).toFixed(1)} KB, already parsed) vs JSON.parse of the same bytes; 21 alternating 100 ms rounds, median`,
    unit: 'ops/s',
    subject: { label: 'generated validator', value: 1000 / ms.validate },
    baseline: { label: 'JSON.parse', value: 1000 / ms.parse },
    target: { op: '>=', ratio: 5 },
  });
}

/**
 * A generated module as the JavaScript a consumer loads: what `npm run build` (tsc) emits for it,
 * which re-prints the minified code with its own line breaks and indentation.
 */
async function compiledModule(rel: string): Promise<string> {
  const source = await readFile(path.join(repoRoot, 'generated/validators', rel), 'utf8');
  const code = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = path.join(work, rel.replace(/\.ts$/, '.mjs'));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, code);
  return file;
}

// Child scripts: each times only its work and prints the milliseconds. Loading Ajv itself and
// parsing the document are left out of the compile side's time.
const LOAD_SCRIPT = `const started = performance.now();
await import(process.argv[2]);
console.log(performance.now() - started);
`;
const COMPILE_SCRIPT = `import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
const doc = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const pointers = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const started = performance.now();
// What a developer compiling at run time writes: Ajv's defaults plus formats.
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, logger: false });
ajvFormats(ajv);
ajv.addSchema(doc, ${JSON.stringify(BASE)});
for (const pointer of pointers) ajv.compile({ $ref: ${JSON.stringify(BASE)} + pointer });
console.log(performance.now() - started);
`;
// The same comparison inside one warmed-up process: fresh instances of the module (new source text
// each time, so V8 has nothing cached) vs compiles after a few warm-up compiles. Prints both medians.
const WARM_SCRIPT = `import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
const [moduleFile, docFile, pointersFile] = process.argv.slice(2);
const source = readFileSync(moduleFile, 'utf8');
const doc = JSON.parse(readFileSync(docFile, 'utf8'));
const pointers = JSON.parse(readFileSync(pointersFile, 'utf8'));
const compile = () => {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, logger: false });
  ajvFormats(ajv);
  ajv.addSchema(doc, ${JSON.stringify(BASE)});
  for (const pointer of pointers) ajv.compile({ $ref: ${JSON.stringify(BASE)} + pointer });
};
let n = 0;
const load = async () => {
  const file = moduleFile.replace(/\\.mjs$/, '') + '.instance-' + n + '.mjs';
  writeFileSync(file, source + '\\n// instance ' + n++ + '\\n');
  const started = performance.now();
  await import(pathToFileURL(file).href);
  const ms = performance.now() - started;
  rmSync(file);
  return ms;
};
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
for (let i = 0; i < 3; i++) (compile(), await load());
const loads = [];
const compiles = [];
for (let i = 0; i < 9; i++) {
  loads.push(await load());
  const started = performance.now();
  compile();
  compiles.push(performance.now() - started);
}
console.log(JSON.stringify({ load: median(loads), compile: median(compiles) }));
`;

async function loadVsCompile(): Promise<Metric[]> {
  await mkdir(work, { recursive: true });
  const doc = await bundleDocument('storefront');
  const docFile = path.join(work, 'storefront.json');
  await writeFile(docFile, JSON.stringify(doc));
  const loadScript = path.join(work, 'load.mjs');
  const compileScript = path.join(work, 'compile.mjs');
  const warmScript = path.join(work, 'warm.mjs');
  await writeFile(loadScript, LOAD_SCRIPT);
  await writeFile(compileScript, COMPILE_SCRIPT);
  await writeFile(warmScript, WARM_SCRIPT);

  const cases = [
    {
      id: 'validators.load.vs.compile',
      what: `first use of one operation's validators (${OPERATION}, its request body and every response)`,
      module: `storefront/${OPERATION}.ts`,
      pointers: Object.values(operationSchemas(doc).find((op) => op.operationId === OPERATION)!.pointers),
    },
    {
      id: 'validators.loadAll.vs.compileAll',
      what: 'loading every storefront validator at once (the synchronous storefront-contract/validators path)',
      module: 'storefront.ts',
      pointers: Object.values(openapiSchemaPointers(doc)),
    },
  ];
  const results: Metric[] = [];
  for (const c of cases) {
    const moduleFile = await compiledModule(c.module);
    const pointersFile = path.join(work, `${c.id}.pointers.json`);
    await writeFile(pointersFile, JSON.stringify(c.pointers));
    const fresh = await freshProcessMedians({
      load: { script: loadScript, args: [pathToFileURL(moduleFile).href] },
      compile: { script: compileScript, args: [docFile, pointersFile] },
    });
    const warm = JSON.parse((await exec(process.execPath, [warmScript, moduleFile, docFile, pointersFile])).stdout) as { load: number; compile: number };
    const kb = ((await readFile(moduleFile)).byteLength / 1024).toFixed(0);
    results.push(
      metric({
        id: c.id,
        description:
          `${c.what}: a fresh Node process importing generated/validators/${c.module} compiled to JS as a consumer gets it (${kb} KB) ` +
          `vs a fresh Node process compiling the same ${c.pointers.length} schemas with Ajv (new Ajv2020 with default options + ajv-formats + addSchema + compile; ` +
          'loading Ajv and parsing the document not counted); median of 9 alternating runs each',
        unit: 'ms',
        subject: { label: 'load precompiled', value: fresh.load },
        baseline: { label: 'Ajv compile', value: fresh.compile },
        target: { op: '<=', ratio: 0.05 },
        notes: `in one warmed-up process instead (fresh module instances vs compiles after warm-up, median of 9): ${warm.load.toFixed(2)} ms vs ${warm.compile.toFixed(1)} ms, ratio ${(warm.load / warm.compile).toFixed(4)}`,
      }),
    );
  }
  return results;
}

async function clientBundle(): Promise<Metric> {
  const outdir = path.join(work, 'bundle');
  const client = await bundleSize(`import { createStorefrontClient } from './src/index.ts';\nexport default createStorefrontClient;\n`, repoRoot, outdir);
  const plain = await bundleSize(`import createClient from 'openapi-fetch';\nexport default createClient;\n`, repoRoot, outdir);
  const lazy = (input: string) => client.lazyChunks.find((c) => c.inputs.includes(input))?.gzip;
  return metric({
    id: 'client.bundle.vs.openapiFetch',
    description:
      "what `import { createStorefrontClient } from 'storefront-contract'` adds to an app bundled by esbuild (bundle, minify, ESM, code splitting), " +
      'vs `import createClient from "openapi-fetch"` bundled the same way: the chunks that load with the import (entry + static imports), each gzipped',
    unit: 'bytes gzip',
    subject: { label: 'typed client', value: client.gzip },
    baseline: { label: 'openapi-fetch', value: plain.gzip },
    target: { op: '<=', ratio: 1.5 },
    notes:
      `minified ${client.minified} vs ${plain.minified} bytes; loaded later only with validation on (gzip): response checking ${lazy('src/client/response-check.ts') ?? '?'} B, ` +
      `${OPERATION}'s validators ${lazy(`generated/validators/storefront/${OPERATION}.ts`) ?? '?'} B; ${client.lazyChunks.length} lazy chunks in all`,
  });
}

async function clientViteApp(): Promise<Metric> {
  const plain = await viteAppSize(OPENAPI_FETCH_APP);
  const client = await viteAppSize(storefrontApp());
  const lazy = client.chunks.filter((c) => !c.initial);
  return metric({
    id: 'client.viteApp.vs.openapiFetch',
    description:
      'a minimal app built by the current Vite major (vite build, defaults, index.html entry) signing in anonymously with createStorefrontClient and listing products, ' +
      'vs the same two calls (sign-in with the key, the list with the token) on openapi-fetch alone built the same way: the JS that loads with the app (entry chunk + static imports), each chunk gzipped',
    unit: 'bytes gzip',
    subject: { label: 'typed client app', value: client.initialGzip },
    baseline: { label: 'openapi-fetch app', value: plain.initialGzip },
    target: { op: '<=', ratio: 1.5 },
    notes: `Vite ${client.vite}; initial chunks include Vite's preload helper (for the client's dynamic imports); ${lazy.length} lazy chunks (the error classes, the token session, validation, one per storefront operation), none of the Admin API`,
  });
}

const CLIENT_ROUNDS = 15;
const CLIENT_ROUND_MS = 150;

export async function clientVsFetch(): Promise<Metric[]> {
  const big = Buffer.from(JSON.stringify(await productListBody(100)));
  const tiny = Buffer.from(JSON.stringify({ success: true, message: 'Countries fetched', content: { countries: [] } }));
  const server = http.createServer((req, res) => {
    const body = req.url!.includes('/catalog/products') ? big : tiny;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const prefix = `${baseUrl}/api/v1/bench-store/storefront`;
  const plain = createStorefrontClient({ baseUrl, storeId: 'bench-store', accessToken: 'bench-token' });
  const checked = createStorefrontClient({ baseUrl, storeId: 'bench-store', accessToken: 'bench-token', validate: 'strict' });
  const headers = { Authorization: 'Bearer bench-token' };
  const results: Metric[] = [];
  try {
    for (const [label, path, call] of [
      ['100-product list', '/catalog/products', (c: typeof plain) => c.GET('/catalog/products')],
      ['tiny body', '/common/countries', (c: typeof plain) => c.GET('/common/countries')],
    ] as const) {
      // Short rounds of sequential calls taken in turn (the order rotating), each side's figure the median of
      // its rounds' mean: one 2 s tinybench run per side let a burst of load from elsewhere decide the ratio
      // (1.02 to 1.23 between full runs; bench/NOTES.md, the typed client).
      const tasks: Array<[string, () => Promise<void>]> = [
        ['fetch + res.json()', async () => {
          const res = await fetch(`${prefix}${path}`, { headers });
          await res.json();
        }],
        ['typed client', async () => {
          const { data } = await call(plain);
          if (!data) throw new Error('no data');
        }],
        ['typed client, validation on', async () => {
          const { data } = await call(checked);
          if (!data) throw new Error('no data');
        }],
      ];
      const perRound = new Map<string, number[]>(tasks.map(([name]) => [name, []]));
      // CPU of this process per call (client and the loopback server alike): steadier than wall time on a
      // shared machine, where sequential loopback round trips wait on the scheduler.
      const cpuPerRound = new Map<string, number[]>(tasks.map(([name]) => [name, []]));
      for (const [, task] of tasks) for (let i = 0; i < 200; i++) await task(); // warm-up, not recorded
      for (let round = 0; round < CLIENT_ROUNDS; round++) {
        for (let i = 0; i < tasks.length; i++) {
          const [name, task] = tasks[(i + round) % tasks.length];
          let calls = 0;
          const started = performance.now();
          const cpu = process.cpuUsage();
          while (performance.now() - started < CLIENT_ROUND_MS) {
            await task();
            calls++;
          }
          const used = process.cpuUsage(cpu);
          perRound.get(name)!.push((performance.now() - started) / calls);
          cpuPerRound.get(name)!.push((used.user + used.system) / calls);
        }
      }
      const [baseline, client, validated] = tasks.map(([name]) => median(perRound.get(name)!));
      const [cpuBaseline, cpuClient, cpuValidated] = tasks.map(([name]) => median(cpuPerRound.get(name)!));
      const cpuNote = (subject: number) => `${CLIENT_ROUNDS} alternating rounds of ${CLIENT_ROUND_MS} ms, medians; CPU per request (this process, server included) ${subject.toFixed(0)} vs ${cpuBaseline.toFixed(0)} µs, ratio ${(subject / cpuBaseline).toFixed(3)}`;
      results.push(
        metric({
          id: `client.${path === '/catalog/products' ? 'listProducts100' : 'tiny'}.vs.fetch`,
          description: `typed client vs plain fetch + res.json(), sequential requests on loopback, ${label}`,
          unit: 'ms/request',
          subject: { label: 'typed client', value: client },
          baseline: { label: 'fetch + res.json()', value: baseline },
          target: { op: '<=', ratio: 1.15 },
          notes: cpuNote(cpuClient),
        }),
      );
      if (path === '/catalog/products') {
        results.push(
          metric({
            id: 'client.listProducts100.validated.vs.fetch',
            description: `typed client with strict validation vs plain fetch + res.json(), ${label}`,
            unit: 'ms/request',
            subject: { label: 'typed client + validation', value: validated },
            baseline: { label: 'fetch + res.json()', value: baseline },
            target: { op: '<=', ratio: 1.3 },
            notes: cpuNote(cpuValidated),
          }),
        );
      }
    }
  } finally {
    await new Promise((r) => server.close(r));
  }
  return results;
}

const suite: BenchSuite = {
  name: 'generated artifacts (validators, typed client)',
  async run() {
    return [await validatorVsParse(), ...(await loadVsCompile()), await clientBundle(), await clientViteApp(), ...(await clientVsFetch())];
  },
};
export default suite;
