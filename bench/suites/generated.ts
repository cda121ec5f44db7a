// Issue 4 benchmarks: the generated validators and the typed client, each against its plain baseline.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { transform } from 'esbuild';
import { Bench } from 'tinybench';
import { metric, type BenchSuite, type Metric } from '../lib/metric.js';
import { productListBody } from '../lib/fixtures.js';
import { repoRoot } from '../../src/contract/spec-files.js';
import { bundleDocument } from '../../scripts/generate/bundle.js';
import { openapiSchemaPointers } from '../../scripts/generate/validator-pointers.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { validateResponse } from '../../src/validators/index.js';
import { createStorefrontClient } from '../../src/client/storefront.js';

async function validatorVsParse(): Promise<Metric> {
  const bytes = JSON.stringify(await productListBody(100));
  const parsed = JSON.parse(bytes);
  const bench = new Bench({ time: 1500, warmupTime: 300 });
  bench
    .add('validate (generated)', () => {
      if (!validateResponse('storefront', 'listProducts', 200, parsed).valid) throw new Error('invalid fixture');
    })
    .add('JSON.parse', () => {
      JSON.parse(bytes);
    });
  await bench.run();
  const [validate, parse] = bench.tasks.map((t) => t.result!.throughput.mean);
  return metric({
    id: 'validator.listProducts100.vs.jsonParse',
    description: `validating a 100-product listProducts response (${(bytes.length / 1024).toFixed(1)} KB) vs JSON.parse of the same bytes`,
    unit: 'ops/s',
    subject: { label: 'generated validator', value: validate },
    baseline: { label: 'JSON.parse', value: parse },
    target: { op: '>=', ratio: 2.5 },
  });
}

/** The generated module as the JavaScript a consumer loads (type annotations stripped by esbuild). */
async function compiledValidatorsModule(): Promise<string> {
  const source = await readFile(path.join(repoRoot, 'generated/validators/storefront.ts'), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm', minifyWhitespace: true });
  // Inside the repository so the module's own imports (ajv runtime helpers) resolve as they would.
  const dir = path.join(repoRoot, 'bench/tmp');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'storefront-validators.mjs');
  await writeFile(file, code);
  return pathToFileURL(file).href;
}

async function loadVsCompile(): Promise<Metric> {
  const doc = await bundleDocument('storefront');
  const pointers = openapiSchemaPointers(doc);
  const moduleUrl = await compiledValidatorsModule();
  let n = 0;
  const bench = new Bench({ iterations: 20, time: 0, warmupIterations: 2 });
  bench
    .add('import precompiled', async () => {
      // A fresh URL defeats the ESM module cache, so each run loads and evaluates the module again.
      await import(`${moduleUrl}?run=${n++}`);
    })
    .add('compile at run time', () => {
      // What a developer compiling at run time writes: Ajv's defaults plus formats.
      const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, logger: false });
      ajvFormats.default(ajv);
      ajv.addSchema(doc, 'https://storefront-contract.local/storefront.json');
      for (const ptr of Object.values(pointers)) ajv.compile({ $ref: `https://storefront-contract.local/storefront.json${ptr}` });
    });
  await bench.run();
  const [load, compile] = bench.tasks.map((t) => t.result!.latency.mean);
  return metric({
    id: 'validators.load.vs.compile',
    description: `loading all ${Object.keys(pointers).length} precompiled storefront validators (compiled JS, as a consumer loads it) vs compiling the same schemas with Ajv (default options + ajv-formats)`,
    unit: 'ms',
    subject: { label: 'load precompiled', value: load },
    baseline: { label: 'Ajv compile', value: compile },
    target: { op: '<=', ratio: 0.05 },
  });
}

async function clientVsFetch(): Promise<Metric[]> {
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
      const bench = new Bench({ time: 2000, warmupTime: 300 });
      bench
        .add('fetch + res.json()', async () => {
          const res = await fetch(`${prefix}${path}`, { headers });
          await res.json();
        })
        .add('typed client', async () => {
          const { data } = await call(plain);
          if (!data) throw new Error('no data');
        })
        .add('typed client, validation on', async () => {
          const { data } = await call(checked);
          if (!data) throw new Error('no data');
        });
      await bench.run();
      const [baseline, client, validated] = bench.tasks.map((t) => t.result!.latency.mean);
      results.push(
        metric({
          id: `client.${path === '/catalog/products' ? 'listProducts100' : 'tiny'}.vs.fetch`,
          description: `typed client vs plain fetch + res.json(), sequential requests on loopback, ${label}`,
          unit: 'ms/request',
          subject: { label: 'typed client', value: client },
          baseline: { label: 'fetch + res.json()', value: baseline },
          target: { op: '<=', ratio: 1.15 },
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
    return [await validatorVsParse(), await loadVsCompile(), ...(await clientVsFetch())];
  },
};
export default suite;
