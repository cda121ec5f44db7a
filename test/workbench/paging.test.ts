// Paging on every list the workbench serves live: schema-valid numbers, however large, never give a
// 5XX; a limit above the designed maximum page size is answered with the maximum; numbers parse the
// same way on every API (the pipeline validates them from the spec).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE } from '../../workbench/http/paging.js';
import { call, createWebhook, startWorkbench, type Bench } from '../simulator/helpers.js';

let bench: Bench;
beforeAll(async () => {
  bench = await startWorkbench();
  for (let i = 0; i < 3; i++) await createWebhook(bench.server, 'paging', { url: `http://127.0.0.1:9/h${i}`, events: ['order.created'] });
});
afterAll(async () => {
  await bench?.close();
});

const LISTS = ['/webhooks', '/webhooks/deliveries'];
const admin = (path: string) => call(`${bench.server.url}/api/v1/paging/admin`, 'GET', path);

describe.each(LISTS)('%s', (list) => {
  it.each(['page=9223372036854775807', 'page=1e300', 'page=1e15&limit=100', 'page=9007199254740993'])('%s is an empty page past the end', async (query) => {
    const reply = await admin(`${list}?${query}`);
    expect(reply.status).toBe(200);
    expect(reply.json.content.pagination).toMatchObject({ next_page: null });
    expect(Object.values(reply.json.content).find(Array.isArray)).toEqual([]);
  });

  it.each(['limit=18446744073709551616', `limit=${MAX_PAGE_SIZE + 1}`, 'limit=1000000'])('%s is answered with the maximum page size', async (query) => {
    const reply = await admin(`${list}?${query}`);
    expect(reply.status).toBe(200);
    expect(reply.json.content.pagination.limit).toBe(MAX_PAGE_SIZE);
  });

  it.each(['page=0x10', 'page=0b101', 'page=%205', 'page=5%20', 'page=', 'page=0', 'page=-1', 'limit=2.5', 'limit=0', 'page=NaN', 'page=Infinity'])('%s is a 400 envelope naming the parameter', async (query) => {
    const reply = await admin(`${list}?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ success: false, content: { error: { code: 'invalid_parameter' } } });
    expect(reply.json.content.error.details[0].name).toBe(query.split('=')[0]);
  });
});

it('the storefront parses numbers the same way', async () => {
  for (const query of ['page=0x10', 'page=%205', 'limit=2.5']) {
    const reply = await call(`${bench.server.url}/api/v1/paging/storefront`, 'GET', `/catalog/products?${query}`, undefined, { authorization: 'Bearer t' });
    expect(reply.status).toBe(400);
  }
});
