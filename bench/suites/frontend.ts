// The front-end kit, each against its plain baseline:
//   - requests through a client whose token a session keeps (`signIn`: the session's middleware on every
//     call, the request kept for a retry) vs the same client given the token once (`accessToken`);
//   - what a React app on storefront-contract/react-query loads vs the same app on openapi-react-query
//     over plain openapi-fetch (esbuild: bundle, minify, ESM, code splitting; React and TanStack Query in
//     both), so the ratio is what the library's hooks, typed client and error class add to a real app.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { median } from '../lib/alternate.js';
import { bundleSize } from '../lib/bundle-size.js';
import { metric, type BenchSuite, type Metric } from '../lib/metric.js';
import { repoRoot } from '../../scripts/lib/repo.js';
import { createStorefrontClient, type StorefrontClient } from '../../src/client/storefront.js';

const work = path.join(repoRoot, 'bench/tmp/frontend');
/** React's production build, as an app's bundler configures it. */
const PRODUCTION = { define: { 'process.env.NODE_ENV': '"production"' } };

async function sessionVsToken(): Promise<Metric> {
  const tiny = Buffer.from(JSON.stringify({ success: true, message: 'Countries fetched', content: { countries: [] } }));
  const server = http.createServer((req, res) => {
    const body = req.url!.endsWith('/auth/anonymous') ? Buffer.from(JSON.stringify({ success: true, message: 'ok', content: { user: {}, access_token: 'bench-token', refresh_token: 'r' } })) : tiny;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const given = createStorefrontClient({ baseUrl, storeId: 'bench-store', accessToken: 'bench-token' });
    const kept: StorefrontClient = createStorefrontClient({ baseUrl, storeId: 'bench-store', apiKey: 'bench-key', signIn: () => kept.signInAnonymously().then((s) => s.access_token) });
    await kept.GET('/common/countries'); // signs in once, before the measurement
    // Rounds taken in turn (a burst of load from elsewhere hits both sides alike), the median round per side.
    const round = async (client: StorefrontClient, calls = 200) => {
      const started = performance.now();
      for (let i = 0; i < calls; i++) if (!(await client.GET('/common/countries')).data) throw new Error('no data');
      return (performance.now() - started) / calls;
    };
    const samples: Record<'given' | 'kept', number[]> = { given: [], kept: [] };
    await round(given, 100);
    await round(kept, 100);
    for (let i = 0; i < 15; i++) {
      samples.kept.push(await round(kept));
      samples.given.push(await round(given));
    }
    const [baseline, subject] = [median(samples.given), median(samples.kept)];
    return metric({
      id: 'client.session.tiny.vs.token',
      description:
        'typed client whose token a session keeps (signIn: middleware on every call, the request kept for a retry on 401) vs the same client given the token, sequential tiny-body requests on loopback; 15 alternating rounds of 200, median',
      unit: 'ms/request',
      subject: { label: 'signIn session', value: subject },
      baseline: { label: 'accessToken given', value: baseline },
      target: { op: '<=', ratio: 1.2 },
    });
  } finally {
    await new Promise((r) => server.close(r));
  }
}

const APP = (imports: string, setup: string) => `${imports}
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
${setup}
function Products() {
  const { data, error } = api.useQuery('get', '/catalog/products', { params: { query: { limit: 20 } } });
  if (error) return h('p', null, String(error));
  return h('ul', null, (data?.content.products ?? []).map((p) => h('li', { key: p.id }, p.name)));
}
createRoot(document.getElementById('root')).render(h(QueryClientProvider, { client: new QueryClient() }, h(Products)));
`;

async function reactQueryApp(): Promise<Metric> {
  const ours = await bundleSize(
    APP(
      "import { createStorefrontClient } from 'storefront-contract';\nimport { createQueryHooks } from 'storefront-contract/react-query';",
      "const client = createStorefrontClient({ baseUrl: 'https://api.example.com', storeId: 'demo-store', apiKey: 'k', signIn: () => client.signInAnonymously().then((s) => s.access_token) });\nconst api = createQueryHooks(client);",
    ),
    repoRoot,
    work,
    PRODUCTION,
  );
  const plain = await bundleSize(
    APP(
      "import createFetchClient from 'openapi-fetch';\nimport createClient from 'openapi-react-query';",
      "const fetchClient = createFetchClient({ baseUrl: 'https://api.example.com/api/v1/demo-store/storefront', headers: { Authorization: 'Bearer t' } });\nconst api = createClient(fetchClient);",
    ),
    repoRoot,
    work,
    PRODUCTION,
  );
  return metric({
    id: 'reactQuery.app.vs.openapiReactQuery',
    description:
      'a React app listing products with storefront-contract/react-query (typed client, anonymous sign-in session, failures as StorefrontApiError) vs the same app on openapi-react-query over plain openapi-fetch with a fixed token; esbuild bundle, minify, ESM, splitting; the chunks that load with the app, each gzipped',
    unit: 'bytes gzip',
    subject: { label: 'storefront-contract/react-query app', value: ours.gzip },
    baseline: { label: 'openapi-react-query app', value: plain.gzip },
    target: { op: '<=', ratio: 1.1 },
    notes: `${ours.gzip - plain.gzip} B gzip more; the session (${ours.lazyChunks.find((c) => c.inputs.some((i) => i.endsWith('src/client/session.ts')))?.gzip ?? '?'} B) loads with the first call`,
  });
}

const suite: BenchSuite = {
  name: 'front-end kit (token session, query hooks)',
  async run() {
    return [await sessionVsToken(), await reactQueryApp()];
  },
};
export default suite;
