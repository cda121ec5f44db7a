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

  it('issue 38: keeps exactly maxEntries ids; one more forgets the least recently touched, down to 90%', () => {
    const store = new MemoryDedupeStore({ maxEntries: 10 });
    for (let i = 0; i < 10; i++) {
      store.claim(`evt_${i}`);
      store.complete(`evt_${i}`);
    }
    expect(store.size).toBe(10);
    for (let i = 0; i < 10; i++) expect(store.claim(`evt_${i}`), `evt_${i}`).toBe('duplicate');
    expect(store.claim('evt_10')).toBe('claimed');
    expect(store.size).toBe(9);
    for (let i = 2; i < 10; i++) expect(store.claim(`evt_${i}`), `evt_${i}`).toBe('duplicate');
    expect(store.claim('evt_10')).toBe('in-flight');
    expect(store.claim('evt_0')).toBe('claimed');
  });

  it('issue 38: past maxEntries, expired ids go first and live ones stay when that is enough', () => {
    const c = clock();
    const store = new MemoryDedupeStore({ maxEntries: 4, retentionMs: 100, now: c.now });
    for (const id of ['a', 'b']) store.complete(id);
    c.advance(100);
    for (const id of ['c', 'd', 'e']) store.complete(id);
    expect(store.size).toBe(3);
    for (const id of ['c', 'd', 'e']) expect(store.claim(id), id).toBe('duplicate');
    expect(store.claim('a')).toBe('claimed');
  });
});
