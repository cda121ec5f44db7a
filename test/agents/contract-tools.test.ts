// The contract tools, through the toolbox's own call (input and output validated as tools/call does),
// against the model itself: every operation, schema and event the documents hold is answered, within
// its budget, with what the documents say. The lists come from the model and the catalog, never from here.
import { webhookEvents } from 'storefront-contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../workbench/contract/model.js';
import { decisionRegister } from '../../workbench/contract/register.js';
import { createAgentToolbox, type AgentToolbox } from '../../workbench/agents/index.js';
import { toolCalls } from './calls.js';
import { OPERATION_CARD_BYTES } from '../../workbench/agents/contract-tools.js';

let toolbox: AgentToolbox;
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
  // No workbench behind: the contract tools never call it.
  toolbox = await createAgentToolbox({ link: { fetch: () => Promise.reject(new Error('not called')), origin: () => 'http://127.0.0.1:1' } });
}, 60_000);

const { ok, refused } = toolCalls(() => toolbox);

describe('contract_operation', () => {
  const all = () => [...contract.storefront.operations, ...contract.admin.operations];

  it('answers every operation of both documents in at most 2 KB, with each of its parameters and statuses', async () => {
    expect(all().length).toBeGreaterThanOrEqual(22);
    for (const op of all()) {
      const card = await ok('contract_operation', { operation_id: op.operationId });
      expect(Buffer.byteLength(JSON.stringify(card)), op.operationId).toBeLessThanOrEqual(OPERATION_CARD_BYTES);
      expect(card.method).toBe(op.method.toUpperCase());
      expect(card.path.endsWith(op.path)).toBe(true);
      expect(card.parameters.map((p: { name: string }) => p.name)).toEqual(op.parameters.map((p) => p.name));
      expect(Object.keys(card.responses)).toEqual(Object.keys(op.responses));
      if (op.requestBody) expect(Object.keys(card.body.fields).length).toBeGreaterThan(0);
      else expect(card.body).toBeUndefined();
    }
  });

  it('says what the platform states and what is designed here, as the documents mark it', async () => {
    const card = await ok('contract_operation', { operation_id: 'evaluateCartCoupons' });
    expect(card.source).toBe('stated by the platform');
    expect(card.responses['200'].designed).toBeUndefined();
    expect(card.responses['401']).toMatchObject({ designed: true, code: 'unauthorized' });
    const admin = await ok('contract_operation', { operation_id: 'createWebhook' });
    expect(admin.path).toBe('/api/v1/{store_id}/admin/webhooks');
    expect(admin.auth[0]).toMatch(/^adminBearer: Authorization: Bearer/);
  });

  it('refuses an id that is no operation, with the closest ones, or only the way to find them', async () => {
    expect(await refused('contract_operation', { operation_id: 'listProduct' })).toBe(
      `contract_operation: the input does not match the tool's input schema: /operation_id: string "listProduct" is not one of its ${all().length} values; did you mean listProducts? (contract_search finds them by words)`,
    );
    expect(await refused('contract_operation', { operation_id: 'ListOrder' })).toMatch(/did you mean listOrders\?/);
    expect(await refused('contract_operation', { operation_id: 'zzzzzz' })).toMatch(new RegExp(`is not one of its ${all().length} values \\(contract_search finds them by words\\)$`));
  });
});

describe('contract_search', () => {
  it('puts the operation named by the word first, then events, schemas and decisions', async () => {
    const found = await ok('contract_search', { query: 'coupon', limit: 25 });
    expect(found.results[0]).toMatchObject({ kind: 'operation', name: 'evaluateCartCoupons', read: 'contract_operation { "operation_id": "evaluateCartCoupons" }' });
    expect(new Set(found.results.map((r: { kind: string }) => r.kind))).toEqual(new Set(['operation', 'event', 'schema', 'decision']));
    expect(found.total).toBeGreaterThanOrEqual(found.results.length);
  });

  it('filters by kind and honours the limit, both sides of its bounds', async () => {
    const events = await ok('contract_search', { query: 'order', kinds: ['event'], limit: 1 });
    expect(events.results).toHaveLength(1);
    expect(events.results[0].kind).toBe('event');
    expect(await refused('contract_search', { query: 'order', limit: 0 })).toMatch(/limit: must be >= 1/);
    expect((await ok('contract_search', { query: 'order', limit: 25 })).results.length).toBeLessThanOrEqual(25);
    expect(await refused('contract_search', { query: 'order', limit: 26 })).toMatch(/limit: must be <= 25/);
  });

  it('says what to try when nothing matches', async () => {
    const none = await ok('contract_search', { query: 'zzqx' });
    expect(none).toMatchObject({ total: 0, results: [] });
    expect(none.hint).toMatch(/^nothing matches "zzqx": try the words of the platform/);
    expect((await ok('contract_search', { query: 'coupon' })).hint).toBeUndefined();
  });

  it('says so when a query has no word', async () => {
    expect(await refused('contract_search', { query: '!?' })).toMatch(/no word to look for/);
  });
});

describe('contract_schema and contract_event', () => {
  it('reads a schema\'s fields and the operations using it', async () => {
    const cart = await ok('contract_schema', { name: 'Cart' });
    expect(cart.fields.id).toMatch(/^string, required/);
    expect(cart.used_by).toContain('getPosCart');
    expect(cart.truncated).toBe(false);
  });

  it('answers every event of the catalog with its payload\'s fields and its signed example', async () => {
    for (const entry of webhookEvents) {
      const card = await ok('contract_event', { event: entry.event });
      expect(card.example.headers['X-SVC-Event'], entry.event).toBe(entry.event);
      expect(card.example.headers['X-SVC-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(Object.keys(card.properties).length, entry.event).toBeGreaterThan(0);
      expect(Buffer.byteLength(JSON.stringify(card))).toBeLessThanOrEqual(8192);
    }
    const order = await ok('contract_event', { event: 'order.created' });
    expect(order.properties.order_number).toMatch(/^string, required/);
    expect(order.delivery.retries_after_seconds).toEqual([5, 30, 300]);
  });
});

describe('contract_provenance', () => {
  it('answers one decision by id, whole', async () => {
    const one = await ok('contract_provenance', { id: 'SF-003' });
    expect(one.decisions[0]).toMatchObject({ id: 'SF-003', register: 'storefront' });
    expect(one.decisions[0].where).toContain('openapi/components/parameters/DebugMode.yaml#');
  });

  it('pages the register: every decision once over the pages', async () => {
    const register = await decisionRegister();
    const ids: string[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const page: any = await ok('contract_provenance', { offset, limit: 50 });
      ids.push(...page.decisions.map((d: { id: string }) => d.id));
      expect(page.total).toBe(register.length);
      offset = page.next_offset;
    }
    expect(ids).toEqual(register.map((d) => d.id));
  });

  it('refuses an id that is not in the register', async () => {
    expect(await refused('contract_provenance', { id: 'SF-999' })).toMatch(/no decision "SF-999"/);
  });
});
