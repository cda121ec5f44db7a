// The Admin API's lists page by the workbench's one paging rule (workbench/http/paging.ts, register
// SF-041), the storefront's: any `page` the parameter allows is answered, a page past the last one is
// empty with `next_page: null` and `previous_page` naming the last page (null when there is none), a
// fractional page is the page it falls in, and the neighbours are whole numbers within 1..total_pages
// however large the page asked; `page` below 1 is the contract's 400. Over real HTTP, every answer checked
// against the contract's schema (helpers.admin).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, createWebhook, deliveries, freshStore, startReceiver, startWorkbench, waitFor, type Bench, type Receiver } from './helpers.js';

let bench: Bench;
let r: Receiver;
const store = freshStore('paging');
const empty = freshStore('paging-empty');

beforeAll(async () => {
  bench = await startWorkbench();
  r = await startReceiver(() => ({ status: 200 }));
  // Three subscriptions and one event: three webhooks, three delivery attempts.
  for (let i = 0; i < 3; i++) await createWebhook(bench.server, store, { url: `${r.url}/${i}`, events: ['order.created'] });
  bench.sim.trigger(store, 'order.created');
  await waitFor(async () => ((rows) => rows.length === 3 && rows.every((d) => d.status === 'succeeded'))(await deliveries(bench.server, store)), 'three deliveries');
});
afterAll(async () => {
  await bench?.close();
  await r?.close();
});

const LISTS = [
  { operationId: 'listWebhookDeliveries', path: '/webhooks/deliveries', key: 'deliveries' },
  { operationId: 'listWebhooks', path: '/webhooks', key: 'webhooks' },
] as const;

/** What holds on every page, whatever was asked: whole neighbours inside 1..total_pages. */
function expectSaneNeighbours(pagination: any, text: string) {
  for (const name of ['next_page', 'previous_page'] as const) {
    const n = pagination[name];
    if (n === null) continue;
    expect(Number.isSafeInteger(n), `${name} ${n} is a whole number`).toBe(true);
    expect(n, name).toBeGreaterThanOrEqual(1);
    expect(n, name).toBeLessThanOrEqual(pagination.total_pages);
  }
  // Never an exponent or a fraction in the bytes where the schema wants a page number.
  expect(text).not.toMatch(/"(next|previous)_page":-?\d+[.eE]/);
}

describe.each(LISTS)('$operationId', ({ operationId, path, key }) => {
  const get = (storeId: string, query: string) => admin(bench.server, operationId, 'GET', storeId, `${path}?${query}`);

  // limit=2 over 3 rows: total_pages 2.
  const pages: Array<[string, { query: string; rows: number; next: number | null; previous: number | null }]> = [
    ['the last page', { query: 'page=2&limit=2', rows: 1, next: null, previous: 1 }],
    ['one page past the end', { query: 'page=3&limit=2', rows: 0, next: null, previous: 2 }],
    ['page 2^53', { query: `page=${2 ** 53}&limit=2`, rows: 0, next: null, previous: 2 }],
    ['page 1e20 (as written)', { query: 'page=1e20&limit=2', rows: 0, next: null, previous: 2 }],
    ['page 99999999999999999999', { query: 'page=99999999999999999999&limit=2', rows: 0, next: null, previous: 2 }],
    ['page 1.5 (the page it falls in: 1)', { query: 'page=1.5&limit=2', rows: 2, next: 2, previous: null }],
    ['page 2.999 (the page it falls in: 2)', { query: 'page=2.999&limit=2', rows: 1, next: null, previous: 1 }],
  ];

  it.each(pages)('%s', async (_, want) => {
    const reply = await get(store, want.query);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.content[key]).toHaveLength(want.rows);
    expect(reply.json.content.pagination).toEqual({ total_records: 3, total_pages: 2, limit: 2, next_page: want.next, previous_page: want.previous });
    expectSaneNeighbours(reply.json.content.pagination, reply.text);
  });

  it.each(['page=2', `page=${2 ** 53}`, 'page=1e20'])('an empty list: %s has no neighbours', async (query) => {
    const reply = await get(empty, query);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.content).toEqual({ [key]: [], pagination: { total_records: 0, total_pages: 0, limit: 20, next_page: null, previous_page: null } });
  });

  it.each(['page=0', 'page=-1', 'page=0.5'])('%s is the contract 400 naming page', async (query) => {
    const reply = await get(store, query);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ success: false, content: { error: { code: 'invalid_parameter' } } });
    expect(reply.json.content.error.details[0]).toMatchObject({ location: 'query', name: 'page' });
  });
});
