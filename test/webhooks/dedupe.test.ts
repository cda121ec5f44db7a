import { describe, expect, it } from 'vitest';
import { MemoryDedupeStore } from '../../src/webhooks/dedupe.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('MemoryDedupeStore', () => {
  it.each([
    ['first claim', [], 'claimed'],
    ['claim while the first is in flight', ['claim'], 'in-flight'],
    ['claim after complete', ['claim', 'complete'], 'duplicate'],
    ['claim after release (handler failed)', ['claim', 'release'], 'claimed'],
    ['claim after complete then release', ['claim', 'complete', 'release'], 'claimed'],
  ] as const)('%s', (_name, steps, want) => {
    const store = new MemoryDedupeStore();
    for (const step of steps) store[step]('evt_1');
    expect(store.claim('evt_1')).toBe(want);
    expect(store.claim('evt_other')).toBe('claimed');
  });

  it('forgets a completed id after the retention window', () => {
    const c = clock();
    const store = new MemoryDedupeStore({ retentionMs: 1000, now: c.now });
    store.claim('evt_1');
    store.complete('evt_1');
    c.advance(999);
    expect(store.claim('evt_1')).toBe('duplicate');
    c.advance(1);
    expect(store.claim('evt_1')).toBe('claimed');
  });

  it('lets a retry through once an unfinished claim expires', () => {
    const c = clock();
    const store = new MemoryDedupeStore({ claimTtlMs: 500, now: c.now });
    store.claim('evt_1');
    c.advance(499);
    expect(store.claim('evt_1')).toBe('in-flight');
    c.advance(1);
    expect(store.claim('evt_1')).toBe('claimed');
  });

  it('stays within maxEntries, forgetting the oldest ids first', () => {
    const store = new MemoryDedupeStore({ maxEntries: 100 });
    for (let i = 0; i < 1000; i++) {
      store.claim(`evt_${i}`);
      store.complete(`evt_${i}`);
    }
    expect(store.size).toBeLessThanOrEqual(100);
    expect(store.claim('evt_999')).toBe('duplicate');
    expect(store.claim('evt_0')).toBe('claimed');
  });
});
