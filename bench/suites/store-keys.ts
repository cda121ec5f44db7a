// The sandbox's per-store API keys (workbench/sandbox/keys.ts): what judging the store's own key (one
// HMAC-SHA256 of the store id, compared in constant time) costs the operation it guards. Subject: POST
// /auth/anonymous with demo-store's key on a sandbox in its default mode (per-store keys). Baseline: the
// same requests on a sandbox started with --any-api-key (any well-formed key, no HMAC). Both workbenches
// run in this process; rounds alternate which side goes first and the median counts.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { median } from '../lib/alternate.js';
import { metric, type BenchSuite } from '../lib/metric.js';
import { createWorkbench, sandboxApiKey } from '../../workbench/index.js';

const REQUESTS = 1500;
const CONCURRENCY = 16;
const ROUNDS = 5;

const suite: BenchSuite = {
  name: 'store-keys',
  async run() {
    const keyed = await createWorkbench({ port: 0, quiet: true, webhooks: false });
    const any = await createWorkbench({ port: 0, quiet: true, webhooks: false, sandbox: { apiKeyMode: 'any' } });
    const agent = new Agent({ connections: CONCURRENCY, pipelining: 1 });
    const headers = { 'x-api-key': sandboxApiKey('demo-store') };
    const round = async (url: string, n: number) => {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next++ < n) {
            const res = await request(`${url}/api/v1/demo-store/storefront/auth/anonymous`, { method: 'POST', headers, dispatcher: agent });
            await res.body.text();
            if (res.statusCode !== 200) throw new Error(`bench: sign-in answered ${res.statusCode}`);
          }
        }),
      );
      return n / ((performance.now() - started) / 1000);
    };
    try {
      await round(keyed.url, 200); // warm-up
      await round(any.url, 200);
      const subject: number[] = [];
      const baseline: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        if (r % 2 === 0) {
          subject.push(await round(keyed.url, REQUESTS));
          baseline.push(await round(any.url, REQUESTS));
        } else {
          baseline.push(await round(any.url, REQUESTS));
          subject.push(await round(keyed.url, REQUESTS));
        }
      }
      return [
        metric({
          id: 'sandbox.storeKey.signIn.vs.anyKey',
          description: `${REQUESTS} POST /auth/anonymous with the store's own key on the default sandbox (per-store keys) vs the same on --any-api-key`,
          unit: 'req/s',
          subject: { label: 'per-store keys', value: median(subject) },
          baseline: { label: '--any-api-key', value: median(baseline) },
          target: { op: '>=', ratio: 0.9 },
          notes: `median of ${ROUNDS} alternating rounds, ${CONCURRENCY} connections, both workbenches in process`,
        }),
      ];
    } finally {
      await agent.close();
      await Promise.all([keyed.close(), any.close()]);
    }
  },
};

export default suite;
