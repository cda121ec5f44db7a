// A recording made against the mock replays against a server holding different data (every id
// renamed, another store id) and passes there, because the bindings carry the live ids forward.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../workbench/adapters/node-http.js';
import { certify } from '../../conformance/rest/certify.js';
import { replay } from '../../conformance/rest/engine.js';
import { loadScenarios } from '../../conformance/rest/load.js';
import { differentDataServer, renamed, startMock, TEST_API_KEY } from './helpers.js';

let mock: MockServer;
let server: Awaited<ReturnType<typeof differentDataServer>>;
beforeAll(async () => {
  mock = await startMock();
  server = await differentDataServer(mock.url);
});
afterAll(async () => {
  await server?.close();
  await mock?.close();
});

describe('replaying on a server with different data', () => {
  it('passes with the bindings (ids captured live, the cart and POS location given as inputs)', async () => {
    const { certificate } = await certify({
      baseUrl: server.url,
      apiKey: TEST_API_KEY,
      storeId: 'other-store',
      inputs: { cart_id: renamed('crt_8N2F6Q'), location_id: renamed('loc_MUM01') },
      concurrency: 4,
    });
    const errors = certificate.exchanges.flatMap((e) => e.findings.filter((f) => f.severity === 'error').map((f) => `${e.id} ${f.rule}: ${f.message}`));
    expect(errors).toEqual([]);
    expect(certificate.verdict).toBe('certified');
    expect(certificate.target.storeId).toBe('other-store');
    // The ids sent were this server's, not the recording's.
    const variant = certificate.exchanges.find((e) => e.id === 'browse-catalog/get-variant')!;
    expect(variant.path).toBe(`/catalog/products/${renamed('prd_7Q2K9X')}/variants/${renamed('var_4M8T2C')}`);
    expect(certificate.exchanges.find((e) => e.id === 'customer/list-cards')!.path).toBe(`/customers/${renamed('cst_9XK2PL')}/cards`);
    expect(server.foreignLookups()).toBe(0);
  });

  it('fails without the bindings: the recorded ids are unknown there', async () => {
    const scenarios = loadScenarios(undefined, ['browse-catalog']).map((s) => ({ ...s, captures: s.captures.filter((c) => c.name === 'access_token') }));
    const run = await replay(scenarios, { baseUrl: server.url, inputs: { api_key: TEST_API_KEY } });
    const variant = run.results.find((r) => r.step === 'get-variant')!;
    expect(variant.status).toBe(404);
    expect(variant.findings.map((f) => f.rule)).toContain('status-documented');
  });
});
