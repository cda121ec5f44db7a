// issue 39 item 4, in process: a write and the events it raises are one unit. A raise the simulator cannot
// build fails the write with a clear 500 (not a log line beside a kept write): the world is as before, and
// no event of the write is stored, not even one raised before the failing one. With --data-dir and
// without it (the store in memory), through the real back office over HTTP.
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../helpers/cleanup.js';
import { backOffice, http, startSandbox } from '../sandbox/helpers.js';
import type { EventSink } from '../../workbench/sandbox/index.js';
import type { Workbench } from '../../workbench/index.js';

const { defer, tempDir } = cleanupAfterEach();
const STORE = 'outbox-unit';

/** A workbench whose raises go through the real simulator, except the `failAt`-th one, which throws. */
async function start(dataDir: string | undefined, failAt: number) {
  let calls = 0;
  let wb: Workbench | undefined;
  const lines: string[] = [];
  const events: EventSink = (storeId, event, properties, actor) => {
    calls++;
    if (calls === failAt) throw new Error(`the ${event} payload does not match its schema (test)`);
    const { content, reply } = wb!.simulator!.service.trigger(storeId, { event, properties, replaceProperties: true, actor });
    if (!content) throw new Error(reply.error?.message);
    return { event, event_id: content.event_id, deliveries: content.deliveries.length };
  };
  wb = await startSandbox({ sandbox: { dataDir, events, log: (l) => lines.push(l) }, webhooks: { timeScale: 0.01, dataDir } });
  defer(() => wb!.close());
  return { wb, lines, calls: () => calls };
}

async function world(wb: Workbench) {
  const products = (await http(`${backOffice(wb, STORE)}/world/products`)).json as Array<{ id: string; variants: Array<{ id: string; inventory: Array<{ stock_quantity: number }> }> }>;
  return products;
}

const stockOf = (products: Awaited<ReturnType<typeof world>>, id: string) => products.find((p) => p.id === id)!.variants.map((v) => v.inventory.reduce((n, l) => n + l.stock_quantity, 0));

async function storedEvents(wb: Workbench): Promise<string[]> {
  const r = await http(`${backOffice(wb, STORE)}/events?limit=100`);
  expect(r.status, r.text).toBe(200);
  return r.json.content.events.map((e: { event_id: string }) => e.event_id);
}

describe.each([
  ['with --data-dir', true],
  ['in memory', false],
])('issue 39 item 4: a raise that cannot be built fails its write (%s)', (_name, persistent) => {
  it('the second of two inventory.updated events fails: 500 naming it, no stock moved, no event stored (the first one neither)', async () => {
    const { wb, lines } = await start(persistent ? await tempDir('outbox-unit-') : undefined, 2);
    const before = await world(wb);
    const several = before.find((p) => p.variants.length >= 2)!;
    const r = await http(`${backOffice(wb, STORE)}/inventory`, 'POST', { body: { product_id: several.id, all_variants: true, adjust: 3 } });
    expect(r.status, r.text).toBe(500);
    expect(r.json).toMatchObject({ success: false, content: { error: { code: 'internal_error' } } });
    expect(r.json.message).toBe(`could not raise inventory.updated in store ${STORE}: the inventory.updated payload does not match its schema (test); nothing was changed.`);
    expect(lines.join('\n')).toContain(`sandbox: could not raise inventory.updated in store ${STORE}`);
    expect(stockOf(await world(wb), several.id)).toEqual(stockOf(before, several.id));
    expect(await storedEvents(wb)).toEqual([]);

    // The next write (its raises succeed) is kept with its events, both sides of the failure.
    const ok = await http(`${backOffice(wb, STORE)}/inventory`, 'POST', { body: { product_id: several.id, all_variants: true, adjust: 3 } });
    expect(ok.status, ok.text).toBe(200);
    expect(stockOf(await world(wb), several.id)).toEqual(stockOf(before, several.id).map((n) => n + 3));
    expect((await storedEvents(wb)).sort()).toEqual(ok.json.content.events.map((e: { event_id: string }) => e.event_id).sort());
    expect(ok.json.content.events).toHaveLength(several.variants.length);
  });
});
