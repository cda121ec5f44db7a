// The sandbox in process (storefront-contract-tools/msw) against the HTTP sandbox (`storefront-contract
// mock`'s workbench on a loopback port), on the same request: a 20-product page of GET /catalog/products
// with a strict token, the same bytes on every side (checked first). Both engines and the client share
// this process; each side keeps CONCURRENCY requests in flight for a round of REQUESTS, rounds alternate
// (alternateRuns) and the totals count.
// - subject `msw.node...`: what a vitest test does: the global fetch, intercepted by msw/node's
//   setupServer, answered by the sandbox's MSW handler;
// - subject `msw.fetch...`: the engine's own `fetch` (handle(Request) called directly, no MSW), as a client's `fetch`;
// - baseline: undici's fetch (not intercepted) to the HTTP sandbox.
import { setupServer } from 'msw/node';
import { fetch as undiciFetch } from 'undici';
import { alternateRuns, perSecond } from '../lib/alternate.js';
import { side, token, type Fetch } from '../lib/fetch-load.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { createWorkbench } from '../../workbench/index.js';
import { createSandboxHandlers } from '../../workbench/msw/node.js';

const BASE = 'http://sandbox.bench';
const PAGE = '/api/v1/bench-store/storefront/catalog/products?limit=20';
const REQUESTS = 400;
const CONCURRENCY = 8;
const ROUNDS = 6;

const suite: BenchSuite = {
  name: 'msw',
  async run() {
    const wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true });
    const sandbox = await createSandboxHandlers({ baseUrl: BASE });
    const server = setupServer(...sandbox.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const viaHttp = undiciFetch as unknown as Fetch;
      const viaMsw = globalThis.fetch as unknown as Fetch;
      const viaEngine = sandbox.fetch as unknown as Fetch;
      const [httpToken, mswToken] = [await token(viaHttp, wb.url), await token(viaMsw, BASE)];
      const bodies = await Promise.all([
        viaHttp(`${wb.url}${PAGE}`, { headers: { authorization: `Bearer ${httpToken}` } }).then((r) => r.text()),
        viaMsw(`${BASE}${PAGE}`, { headers: { authorization: `Bearer ${mswToken}` } }).then((r) => r.text()),
        viaEngine(`${BASE}${PAGE}`, { headers: { authorization: `Bearer ${mswToken}` } }).then((r) => r.text()),
      ]);
      // Image URLs name each engine's own address (the sandbox serves its images there): compared without it.
      const same = (text: string, origin: string) => text.split(`${origin}/__sandbox-assets/`).join('/__sandbox-assets/');
      if (new Set([same(bodies[0], wb.url), same(bodies[1], BASE), same(bodies[2], BASE)]).size !== 1) throw new Error('the sides answer different bodies; the comparison would be unfair');
      const totals = await alternateRuns(
        {
          http: side(viaHttp, `${wb.url}${PAGE}`, httpToken, REQUESTS, CONCURRENCY),
          msw: side(viaMsw, `${BASE}${PAGE}`, mswToken, REQUESTS, CONCURRENCY),
          engine: side(viaEngine, `${BASE}${PAGE}`, mswToken, REQUESTS, CONCURRENCY),
        },
        ROUNDS,
      );
      const notes = `GET ${PAGE} (${bodies[0].length} bytes, identical on every side), strict bearer token; ${ROUNDS} alternating rounds of ${REQUESTS} requests, ${CONCURRENCY} in flight, client and engines in one process`;
      const baseline = { label: 'HTTP sandbox on loopback (undici fetch)', value: perSecond(totals.http) };
      return [
        metric({
          id: 'msw.node.listProducts20.rps.vs.httpSandbox',
          description: "Answers per second of the sandbox's MSW handler under msw/node setupServer (global fetch, intercepted) vs the HTTP sandbox on the same request",
          unit: 'req/s',
          subject: { label: 'MSW handler (setupServer + fetch)', value: perSecond(totals.msw) },
          baseline,
          target: { op: '>=', ratio: 1 },
          notes,
        }),
        metric({
          id: 'msw.fetch.listProducts20.rps.vs.httpSandbox',
          description: "Answers per second of the in-process sandbox's own fetch (the engine's handle called directly, no MSW) vs the HTTP sandbox on the same request",
          unit: 'req/s',
          subject: { label: 'in-process sandbox.fetch', value: perSecond(totals.engine) },
          baseline,
          target: { op: '>=', ratio: 1.5 },
          notes,
        }),
      ];
    } finally {
      server.close();
      await sandbox.close();
      await wb.close();
    }
  },
};

export default suite;
