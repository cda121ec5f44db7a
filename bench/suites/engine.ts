// Issue 39 item 1: the workbench's engine, `handle(request: Request): Promise<Response>`, called directly
// in this process vs the same engine behind its node:http adapter on a loopback port (createWorkbench),
// on the small countries answer (GET /common/countries with a strict token: routing, auth and the answer,
// little body), the same bytes on both sides (checked first). Each side keeps CONCURRENCY requests in
// flight for a round of REQUESTS; rounds alternate (alternateRuns) and the totals count. What the HTTP
// side costs beyond the engine is the adapter, the socket and the client: the engine itself must not be
// where the time goes.
import { fetch as undiciFetch } from 'undici';
import { alternateRuns, perSecond } from '../lib/alternate.js';
import { side, token, type Fetch } from '../lib/fetch-load.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { createWorkbench, createWorkbenchHandler } from '../../workbench/index.js';

const BASE = 'http://engine.bench';
const ORIGIN = BASE;
const PAGE = '/api/v1/bench-store/storefront/common/countries';
const REQUESTS = 2000;
const CONCURRENCY = 8;
const ROUNDS = 6;

const suite: BenchSuite = {
  name: 'engine',
  async run() {
    const wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, console: false });
    const engine = await createWorkbenchHandler({ assetOrigin: ORIGIN });
    try {
      const viaHttp = undiciFetch as unknown as Fetch;
      const direct: Fetch = (url, init) => engine.handle(new Request(url, init));
      const [httpToken, directToken] = [await token(viaHttp, wb.url), await token(direct, BASE)];
      const bodies = await Promise.all([
        viaHttp(`${wb.url}${PAGE}`, { headers: { authorization: `Bearer ${httpToken}` } }).then((r) => r.text()),
        direct(`${BASE}${PAGE}`, { headers: { authorization: `Bearer ${directToken}` } }).then((r) => r.text()),
      ]);
      // Flag URLs name each side's own address (the sandbox serves its images there): compared without it.
      const same = (text: string, origin: string) => text.split(`${origin}/__sandbox-assets/`).join('/__sandbox-assets/');
      if (same(bodies[0], wb.url) !== same(bodies[1], ORIGIN)) throw new Error('the sides answer different bodies; the comparison would be unfair');
      const totals = await alternateRuns({ http: side(viaHttp, `${wb.url}${PAGE}`, httpToken, REQUESTS, CONCURRENCY), direct: side(direct, `${BASE}${PAGE}`, directToken, REQUESTS, CONCURRENCY) }, ROUNDS);
      return [
        metric({
          id: 'engine.direct.countries.rps.vs.nodeHttp',
          description: "Answers per second of the workbench's engine called directly (handle(new Request(...)), no socket) vs the same engine behind its node:http adapter on loopback (undici fetch), on the small countries answer",
          unit: 'req/s',
          subject: { label: 'engine.handle(Request)', value: perSecond(totals.direct) },
          baseline: { label: 'node:http adapter on loopback (undici fetch)', value: perSecond(totals.http) },
          target: { op: '>=', ratio: 1.5 },
          notes: `GET ${PAGE} (${bodies[0].length} bytes, identical on both sides but for the flag URLs' origin), strict bearer token; ${ROUNDS} alternating rounds of ${REQUESTS} requests, ${CONCURRENCY} in flight, client and engines in one process`,
        }),
      ];
    } finally {
      await engine.close();
      await wb.close();
    }
  },
};

export default suite;
