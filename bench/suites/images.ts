// Issue 37 item 29: what an image of a store nobody used costs (a page can name any store id in an <img>).
// Subject: GET /__sandbox-assets/stores/{id}/images/...-240.svg for a new, unknown store id each request
// (answered 404 without building a world: workbench/sandbox/images.ts). Baseline: the same image of a store
// whose world is held (the SVG drawn from it, 200). Both over HTTP on loopback, one keep-alive connection,
// one request at a time, to one in-process workbench; batches of each side in turn, the order flipping every
// round. Before the fix each unknown id built a whole world (hundreds of times the baseline).
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { alternateRuns, type Tally } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { createWorkbench } from '../../workbench/index.js';

const BATCH = 200;
const ROUNDS = 6;
const IMAGE = 'matte-lipstick-ruby-red-240.svg';

const suite: BenchSuite = {
  name: 'images',
  async run() {
    const wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true, webhooks: false });
    const agent = new Agent({ connections: 1 });
    try {
      const get = async (store: string, want: number) => {
        const r = await request(`${wb.url}/__sandbox-assets/stores/${store}/images/${IMAGE}`, { dispatcher: agent, headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' } });
        await r.body.text();
        if (r.statusCode !== want) throw new Error(`image of ${store}: ${r.statusCode}, not ${want}`);
      };
      // The known store is used first, as a page does (its API call builds the world).
      await request(`${wb.url}/__simulator/stores/demo-store/world`, { dispatcher: agent }).then((r) => r.body.text());
      let unknown = 0;
      const batch = (one: () => Promise<void>) => async (): Promise<Tally> => {
        const started = performance.now();
        for (let i = 0; i < BATCH; i++) await one();
        return { n: BATCH, ms: performance.now() - started };
      };
      const totals = await alternateRuns({ unknown: batch(() => get(`unknown-store-${unknown++}`, 404)), known: batch(() => get('demo-store', 200)) }, ROUNDS);
      const per = (t: Tally) => (t.ms / t.n) * 1000;
      const held = wb.sandbox!.sandbox.heldWorlds;
      return [
        metric({
          id: 'sandbox.image.unknownStore.vs.knownStore',
          description: 'An image of a store id nobody used (a new id each request: 404, no world built) vs the same image of a store whose world is held (the SVG drawn, 200), each over HTTP on loopback',
          unit: 'µs per image (mean)',
          subject: { label: 'unknown store', value: per(totals.unknown) },
          baseline: { label: 'known store', value: per(totals.known) },
          target: { op: '<=', ratio: 1.5 },
          notes: `${ROUNDS} rounds of ${BATCH} requests per side, order flipped each round, after one warm-up batch each; one keep-alive connection; ${unknown} unknown store ids asked, ${held} world(s) held after`,
        }),
      ];
    } finally {
      await agent.close();
      await wb.close();
    }
  },
};

export default suite;
