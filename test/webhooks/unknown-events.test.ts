// Events outside the kit's catalog (a newer contract adds `order.archived`): a verified delivery whose
// shared envelope is valid is acknowledged with 200 by default and handed to `onUnknown`, because the
// sender retries every non-2XX (three more attempts, then the delivery fails) and a 400 for a name the
// kit does not know could never become a 2XX on retry. `unknownEvents: 'reject'` keeps the strict 400.
// The signature and the envelope are still checked: an unknown name is no way around either.
import { describe, expect, it } from 'vitest';
import { createWebhookHandler, type UnknownWebhookEvent, type WebhookHandlerOptions } from 'storefront-contract/webhooks';
import { buildDelivery, headersFor, SECRET, type Delivery } from '../../conformance/vectors/webhook-fixtures.js';

/** A delivery of an event the catalog does not have, re-signed after the rename. */
function unknownDelivery(mutate?: (body: Record<string, any>) => void): Delivery {
  const d = buildDelivery({
    mutate: (b) => {
      b.event = b.payload.event = 'order.archived';
      b.payload.properties = { archived_reason: 'kept for tax', order_id: 'ord_1' };
      mutate?.(b as Record<string, any>);
    },
  });
  return { ...d, headers: headersFor(d.body, d.raw, SECRET) };
}

async function post(options: Partial<WebhookHandlerOptions>, d: Delivery) {
  const handler = createWebhookHandler({ secrets: [SECRET], ...options });
  const reply = await handler.handle({ rawBody: d.raw, headers: d.headers, method: 'POST' });
  return { status: reply.status, body: JSON.parse(reply.body), outcome: reply.outcome };
}

describe('events outside the catalog', () => {
  it('are acknowledged with 200 by default and handed to onUnknown, once per event_id', async () => {
    const seen: UnknownWebhookEvent[] = [];
    const handler = createWebhookHandler({ secrets: [SECRET], onUnknown: (e) => void seen.push(e) });
    const d = unknownDelivery();
    const first = await handler.handle({ rawBody: d.raw, headers: d.headers, method: 'POST' });
    expect(first.status).toBe(200);
    expect(first.outcome).toBe('unknown-event');
    expect(seen.map((e) => [e.event, e.payload.properties?.archived_reason])).toEqual([['order.archived', 'kept for tax']]);
    const again = await handler.handle({ rawBody: d.raw, headers: d.headers, method: 'POST' });
    expect(again.outcome).toBe('duplicate');
    expect(seen).toHaveLength(1);
  });

  it('are acknowledged without onUnknown too, naming the event in the answer', async () => {
    const d = unknownDelivery();
    expect(await post({}, d)).toMatchObject({ status: 200, body: { ok: true, status: 'unknown-event', event: 'order.archived' } });
  });

  it("are refused with 400 under unknownEvents: 'reject'", async () => {
    expect(await post({ unknownEvents: 'reject' }, unknownDelivery())).toMatchObject({ status: 400, outcome: 'schema' });
  });

  it('still need a valid signature and a valid envelope', async () => {
    const forged = unknownDelivery();
    expect((await post({}, { ...forged, headers: headersFor(forged.body, forged.raw, 'whsec_someone_else') })).status).toBe(401);
    expect(await post({}, unknownDelivery((b) => delete b.event_id))).toMatchObject({ status: 400, outcome: 'schema' });
    expect(await post({}, unknownDelivery((b) => (b.payload.event = 'order.created')))).toMatchObject({ status: 400 });
  });

  it('a known event with a bad payload is still a 400', async () => {
    const d = buildDelivery({ mutate: (b) => delete (b as Record<string, any>).payload.properties });
    expect(await post({}, d)).toMatchObject({ status: 400, outcome: 'schema' });
  });

  it('a failing onUnknown answers 500, so the sender retries', async () => {
    const d = unknownDelivery();
    expect(await post({ onUnknown: () => Promise.reject(new Error('db down')) }, d)).toMatchObject({ status: 500, outcome: 'handler-error' });
  });
});
