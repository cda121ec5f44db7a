// The simulator keeps recent event payloads in memory so sending does not re-read them. The cache holds
// only payloads that will be sent (an event no subscription receives stays in the table alone) and is
// bounded by bytes as well as by count: large payloads raised for many stores must not grow the heap
// (issue: memory grows without bound; the 5,000-store row of bench/SCALING.md).
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatorStore } from '../../workbench/simulator/store.js';

let store: SimulatorStore | undefined;
afterEach(() => store?.close());

function event(i: number, payloadChars: number) {
  return { eventId: `evt_${i}`, storeId: `s${i}`, event: 'product.updated', isTest: false, payloadJson: JSON.stringify({ pad: 'x'.repeat(payloadChars) }), createdAt: Date.now() };
}
const attempt = (i: number) => ({ deliveryId: `dlv_${i}`, webhookId: 'wh_1', trigger: 'event' as const, url: 'http://127.0.0.1:9/hook', scheduledAt: Date.now() + 3_600_000, autoRetry: true });

describe('the payload cache', () => {
  it('keeps nothing for events no subscription receives', () => {
    store = SimulatorStore.open();
    for (let i = 0; i < 200; i++) store.recordEvent(event(i, 10_000), []);
    expect(store.payloadCache).toEqual({ entries: 0, chars: 0 });
  });

  it('stays under about 16 MB of text however many large payloads are sent', () => {
    store = SimulatorStore.open();
    for (let i = 0; i < 100; i++) store.recordEvent(event(i, 1_000_000), [attempt(i)]);
    const { entries, chars } = store.payloadCache;
    expect(chars).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(entries).toBeGreaterThan(0);
    expect(entries).toBeLessThan(100);
  });
});
