// Marketplace scoping (seed 6.4, x-marketplace-scoped, deliveryRules.marketplaceScope): a scoped
// subscription receives only scoped events whose marketplace_listing[] names its marketplace; a missing or
// empty list reaches no scoped subscription; seller.order.* and seller.shipment.* go to ordinary ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, createWebhook, deliveries, expectAllValid, freshStore, startReceiver, startWorkbench, waitFor, type Bench, type Receiver } from './helpers.js';

let bench: Bench;
let scopedR: Receiver;
let ordinaryR: Receiver;
beforeAll(async () => {
  bench = await startWorkbench({ timeScale: 0.01 });
  scopedR = await startReceiver(() => ({ status: 200 }));
  ordinaryR = await startReceiver(() => ({ status: 200 }));
});
afterAll(async () => {
  await bench.close();
  await scopedR.close();
  await ordinaryR.close();
});

const listing = (marketplaceId: string) => [{ marketplace_id: marketplaceId, listing_id: 'lst_1', listing_status: 'listed', synced_at: '2025-11-14T05:00:03Z' }];

describe('marketplace-scoped subscriptions', () => {
  it('match, no match, missing and empty listing; non-scoped events never reach a scoped subscription', async () => {
    const store = freshStore('mp');
    const scoped = await createWebhook(bench.server, store, { url: scopedR.url, events: ['inventory.updated', 'seller.order.created', 'order.created'], marketplace_id: 'mp-1' });
    const ordinary = await createWebhook(bench.server, store, { url: ordinaryR.url, events: ['inventory.updated', 'seller.order.created', 'seller.shipment.created'] });
    expect(scoped.reply.json.content.webhook.marketplace_id).toBe('mp-1');

    const cases: Array<[string, { event: string; properties?: Record<string, unknown>; unset?: string[] }, string[]]> = [
      ['listing names mp-1', { event: 'inventory.updated', properties: { marketplace_listing: listing('mp-1') } }, [scoped.id, ordinary.id]],
      ['listing names another marketplace', { event: 'inventory.updated', properties: { marketplace_listing: listing('mp-2') } }, [ordinary.id]],
      ['listing missing', { event: 'inventory.updated', unset: ['marketplace_listing'] }, [ordinary.id]],
      ['listing empty', { event: 'inventory.updated', properties: { marketplace_listing: [] } }, [ordinary.id]],
      ['seller.order.* (not scoped)', { event: 'seller.order.created' }, [ordinary.id]],
      ['seller.shipment.* (not scoped)', { event: 'seller.shipment.created' }, [ordinary.id]],
      ['order.created (not scoped)', { event: 'order.created' }, []],
    ];
    const raised: Array<[string, string, string[]]> = [];
    for (const [name, input, want] of cases) {
      const content = bench.sim.trigger(store, input.event, input.properties, input.unset);
      expect(content.deliveries.map((d) => d.webhook_id).sort(), name).toEqual([...want].sort());
      if (want.includes(ordinary.id) && !want.includes(scoped.id) && input.event === 'inventory.updated') {
        expect(content.skipped.map((s) => s.webhook_id), name).toEqual([scoped.id]);
      }
      raised.push([name, content.event_id, want]);
    }
    const total = raised.reduce((n, [, , want]) => n + want.length, 0);
    // A subscriber records a delivery before answering it, so every succeeded row is already captured.
    await waitFor(async () => (await deliveries(bench.server, store)).filter((d) => d.status === 'succeeded').length === total, 'all deliveries');
    expect(scopedR.captured.map((c) => c.body.event_id)).toEqual(raised.filter(([, , w]) => w.includes(scoped.id)).map(([, id]) => id));
    expect(ordinaryR.captured.map((c) => c.body.event_id)).toEqual(raised.filter(([, , w]) => w.includes(ordinary.id)).map(([, id]) => id));
    await expectAllValid(scopedR.captured, scoped.secret);
    await expectAllValid(ordinaryR.captured, ordinary.secret);

    // Replaying an out-of-scope event to the scoped subscription is refused.
    const [, otherMarketplace] = raised[1];
    const refused = await admin(bench.server, 'replayWebhookEvent', 'POST', store, `/webhooks/${scoped.id}/replay-event/${otherMarketplace}`);
    expect(refused.status).toBe(400);
    expect(refused.json.content.error.code).toBe('event_not_subscribed');
    expect(refused.json.message).toContain('mp-1');
  });
});
