// Issue 26 benchmark: what setting up a cart through the back office costs, against a back-office write
// that was there before it. Subject: POST /__simulator/stores/{store_id}/carts with a customer, two lines
// and a coupon (validated field by field, the record checked as the journal checks it at start, priced,
// its storefront answer validated against the spec, journaled, cart.created raised). Baseline: POST
// .../inventory setting one variant's stock (validated, journaled, inventory.updated raised). Both over
// HTTP on loopback (one keep-alive connection, one request at a time), to one in-process workbench with
// the webhook simulator on and no subscription (each side raises one event, validated and stored).
// Batches of each side in turn, the order flipping every round, the totals per side.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { alternateRuns, type Tally } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { createBackOfficeClient, createWorkbench } from '../../workbench/index.js';
import { workbenchApiOperations } from '../../workbench/http/control-routes.js';
import { validateBody } from '../../workbench/mock/validate-request.js';

const STORE = 'bench-store';
const BATCH = 100;
const ROUNDS = 6;

const suite: BenchSuite = {
  name: 'back-office',
  async run() {
    const wb = await createWorkbench({ port: 0, host: '127.0.0.1', quiet: true });
    const agent = new Agent({ connections: 1 });
    try {
      const office = createBackOfficeClient({ baseUrl: wb.url, storeId: STORE });
      const world = await office.getWorld();
      const [a, b] = world.products.without_variant_options;
      const customer = world.customers[0].id;
      const base = `${wb.url}/__simulator/stores/${STORE}`;
      const post = async (path: string, body: unknown, want: number) => {
        const r = await request(`${base}${path}`, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const text = await r.body.text();
        if (r.statusCode !== want) throw new Error(`POST ${path}: ${r.statusCode} ${text.slice(0, 200)}`);
      };
      const cart = { customer_id: customer, coupon_code: 'WELCOME100', cart_items: [{ product_id: a.id, quantity: 2 }, { product_id: b.id, quantity: 1 }] };
      let stock = 1000;
      const batch = (one: () => Promise<void>) => async (): Promise<Tally> => {
        const started = performance.now();
        for (let i = 0; i < BATCH; i++) await one();
        return { n: BATCH, ms: performance.now() - started };
      };
      const totals = await alternateRuns(
        {
          createCart: batch(() => post('/carts', cart, 201)),
          moveStock: batch(() => post('/inventory', { product_id: a.id, stock_quantity: (stock = stock === 1000 ? 999 : 1000) }, 200)),
        },
        ROUNDS,
      );
      const per = (t: Tally) => (t.ms / t.n) * 1000;
      const carts = (await office.getWorld()).counts.carts - world.counts.carts;
      // The workbench API's document judging the same cart body (validateBody, as the pipeline runs it before
      // the handler), in process: its share of the write it guards.
      const createCart = workbenchApiOperations.get('POST /__simulator/stores/{store_id}/carts')!;
      const VALIDATIONS = 20_000;
      for (let i = 0; i < 1000; i++) validateBody(createCart, 'application/json', cart);
      const validatedAt = performance.now();
      for (let i = 0; i < VALIDATIONS; i++) validateBody(createCart, 'application/json', cart);
      const validation = ((performance.now() - validatedAt) / VALIDATIONS) * 1000;
      return [
        metric({
          id: 'backOffice.createCart.vs.moveStock',
          description: 'One cart set up through the back office (a customer, two lines, a coupon: validated, checked against the spec\'s cart answer, journaled, cart.created) vs one stock move (inventory.updated), each over HTTP on loopback',
          unit: 'µs per write (mean)',
          subject: { label: 'POST .../carts', value: per(totals.createCart) },
          baseline: { label: 'POST .../inventory', value: per(totals.moveStock) },
          target: { op: '<=', ratio: 2 },
          notes: `${ROUNDS} rounds of ${BATCH} writes per side, order flipped each round, after one warm-up batch each; one keep-alive connection; ${carts} carts created; simulator on (in memory), no subscriptions`,
        }),
        metric({
          id: 'backOffice.createCart.documentValidation.vs.write',
          description: "The workbench API's document judging a cart body (spec/workbench/openapi.yaml through validateBody, as the pipeline runs it before the handler) vs the whole cart write over HTTP it guards",
          unit: 'µs per body (mean)',
          subject: { label: 'validateBody (createCart)', value: validation },
          baseline: { label: 'POST .../carts', value: per(totals.createCart) },
          target: { op: '<=', ratio: 0.05 },
          notes: `${VALIDATIONS} validations in process after 1,000 warm-up ones (the schema compiled once); the write as in the row above`,
        }),
      ];
    } finally {
      await agent.close();
      await wb.close();
    }
  },
};

export default suite;
