// Issue 37, item 24 (fault rules): deleting a store's rules frees its place among the 1,000 stores that
// hold fault state, and the 409 of a full registry advises what frees one. The real bound over HTTP once,
// then both cases of --fault rules on a registry with a lowered bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workbench } from '../../workbench/index.js';
import { FaultRegistry, MAX_FAULT_STORES } from '../../workbench/mock/faults.js';
import { http, startSandbox } from '../sandbox/helpers.js';

describe('issue 37 item 24: deleting a store\'s fault rules frees its place', () => {
  let wb: Workbench;
  beforeAll(async () => {
    wb = await startSandbox({ webhooks: false });
  });
  afterAll(async () => {
    await wb?.close();
  });
  const faults = (store: string) => `${wb.url}/__simulator/stores/${store}/faults`;
  const addRule = (store: string) => http(faults(store), 'POST', { body: { operation: 'listProducts', delay_ms: 1 } });

  it(`item 24: the real bound of ${MAX_FAULT_STORES}: the 999th and 1,000th store take a rule, the 1,001st is a 409 naming what frees; deleting the last rule (one or all) frees the place`, async () => {
    const stores = Array.from({ length: MAX_FAULT_STORES - 1 }, (_, i) => `fault-${i}`);
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < stores.length) {
          const r = await addRule(stores[next++]);
          statuses.push(r.status);
        }
      }),
    );
    expect(new Set(statuses)).toEqual(new Set([201]));
    // Deleting the rules of a store that has none takes no place either.
    expect((await http(faults('never-had-rules'), 'DELETE')).json.content.removed).toBe(0);
    expect((await http(`${faults('never-had-rules')}/flt_1`, 'DELETE')).status).toBe(404);

    expect((await addRule('fault-1000th')).status).toBe(201);
    const full = await addRule('fault-1001st');
    expect(full.status).toBe(409);
    expect(full.json).toMatchObject({ success: false, content: { error: { code: 'conflict' } } });
    expect(full.json.message).toContain(`Fault rules are kept for at most ${MAX_FAULT_STORES} stores`);
    expect(full.json.message).toContain('DELETE /__simulator/stores/{store_id}/faults');
    expect(full.json.message).toContain('store "fault-0"');

    // Removing the one rule of a store frees its place ...
    expect((await http(`${faults('fault-0')}/flt_1`, 'DELETE')).status).toBe(200);
    expect((await addRule('fault-1001st')).status).toBe(201);
    expect((await addRule('fault-1002nd')).status).toBe(409);
    // ... and so does deleting all of them.
    expect((await http(faults('fault-1'), 'DELETE')).json.content.removed).toBe(1);
    expect((await addRule('fault-1002nd')).status).toBe(201);
    expect((await http(faults('fault-1'))).json.content.rules).toEqual([]);
  });
});

describe('issue 37 item 24: a fault registry with --fault rules, its bound lowered', () => {
  const ops: never[] = [];
  const rule = { operation: '*', delay_ms: 5 };

  it('item 24: without --fault rules, an emptied store holds no place (limit 2: 1 below, at, 1 past)', () => {
    const registry = new FaultRegistry(ops, [], 2);
    registry.add('a', rule);
    expect(registry.heldStores).toBe(1);
    registry.add('b', rule);
    expect(() => registry.add('c', rule)).toThrow(/at most 2 stores; deleting every rule of a store frees its place: .*store "a"/);
    const id = registry.list('a')[0].id;
    expect(registry.remove('a', id)?.id).toBe(id);
    expect(registry.heldStores).toBe(1);
    registry.add('c', rule);
    expect(registry.heldStores).toBe(2);
  });

  it('item 24: with --fault rules, a store that deleted them keeps its place (it remembers that) and the 409 says so', () => {
    const registry = new FaultRegistry(ops, [{ input: rule, source: '*:delay=5' }], 2);
    // Every store starts with the --fault rule; deleting it is remembered (a fresh copy would bring it back).
    expect(registry.clear('a')).toBe(1);
    expect(registry.clear('b')).toBe(1);
    expect(registry.list('a')).toEqual([]);
    expect(() => registry.add('c', rule)).toThrow(/every one of them was changed from its --fault rules.*restart/);
    // A store that only started from the --fault rules never blocks: it is forgotten first.
    const fresh = new FaultRegistry(ops, [{ input: rule, source: '*:delay=5' }], 2);
    fresh.decide('x', 'listProducts', undefined);
    fresh.decide('y', 'listProducts', undefined);
    fresh.add('z', rule);
    expect(fresh.list('z')).toHaveLength(2);
  });
});
