// A small but complete receiving application, shared by every adapter's app: orders kept in memory,
// updates ordered by the staleness guard, every call recorded for assertions. The webhook simulator's
// tests deliver to these apps too, so keep the builders free of test-framework imports.
import { createWebhookHandler, unsubscribe, type WebhookHandler, type WebhookHandlerOptions } from '../../../src/webhooks/handler.js';
import { createStalenessGuard } from '../../../src/webhooks/staleness.js';

export interface OrderEvent {
  event: string;
  event_id: string;
  delivery_id: string;
  payload: { store_id: string; timestamp: string; properties: { order_number: string; status: string } };
}

export interface ReceiverState {
  /** Every business-handler call, in order (a failing call included). */
  calls: Array<{ event: string; eventId: string; deliveryId: string }>;
  /** Events whose handler completed. */
  handled: Array<{ event: string; eventId: string }>;
  tests: string[];
  stale: Array<{ eventId: string; latest: string }>;
  /** Order state by `store_id:order_number`: the last applied update wins. */
  orders: Map<string, { status: string; timestamp: string; eventId: string }>;
  /** event_ids whose next handler call throws (then the id is removed). */
  failOnce: Set<string>;
  /** event_ids whose handler answers unsubscribe() (410). */
  unsubscribeOn: Set<string>;
}

export interface DemoReceiver {
  handler: WebhookHandler;
  state: ReceiverState;
}

export function createDemoReceiver(options: Pick<WebhookHandlerOptions, 'secrets'> & Partial<WebhookHandlerOptions>): DemoReceiver {
  const state: ReceiverState = { calls: [], handled: [], tests: [], stale: [], orders: new Map(), failOnce: new Set(), unsubscribeOn: new Set() };
  const guard = createStalenessGuard();

  const applyOrder = async (e: OrderEvent) => {
    state.calls.push({ event: e.event, eventId: e.event_id, deliveryId: e.delivery_id });
    if (state.failOnce.delete(e.event_id)) throw new Error(`simulated failure for ${e.event_id}`);
    if (state.unsubscribeOn.has(e.event_id)) return unsubscribe();
    const key = `${e.payload.store_id}:${e.payload.properties.order_number}`;
    const outcome = await guard.run(key, e.payload.timestamp, () => {
      state.orders.set(key, { status: e.payload.properties.status, timestamp: e.payload.timestamp, eventId: e.event_id });
    });
    if (!outcome.applied) state.stale.push({ eventId: e.event_id, latest: outcome.latest });
    state.handled.push({ event: e.event, eventId: e.event_id });
    return undefined;
  };

  const handler = createWebhookHandler({
    ...options,
    on: {
      'order.created': (e: unknown) => applyOrder(e as OrderEvent),
      'order.updated': (e: unknown) => applyOrder(e as OrderEvent),
      ...options.on,
    } as WebhookHandlerOptions['on'],
    onTest: (e) => void state.tests.push((e as { event_id: string }).event_id),
  });
  return { handler, state };
}
