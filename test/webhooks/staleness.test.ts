import { describe, expect, it } from 'vitest';
import { createStalenessGuard, timestampToNanos, type StalenessStore } from '../../src/webhooks/staleness.js';

describe('timestampToNanos', () => {
  it.each([
    ['2025-03-14T05:00:04.118Z', '2025-03-14T05:00:04.1181Z', -1],
    ['2025-03-14T05:00:04Z', '2025-03-14T05:00:04.000Z', 0],
    ['2025-03-14T10:30:04.118+05:30', '2025-03-14T05:00:04.118Z', 0],
    ['2025-03-14T05:00:04.118+00:00', '2025-03-14T05:00:03.999Z', 1],
    ['2024-12-31T23:59:59.999999999Z', '2025-01-01T00:00:00Z', -1],
  ])('%s vs %s', (a, b, want) => {
    const diff = timestampToNanos(a) - timestampToNanos(b);
    expect(diff === 0n ? 0 : diff < 0n ? -1 : 1).toBe(want);
  });

  it.each(['', 'yesterday', '2025-03-14', '2025-03-14T05:00:04', '2025-13-14T05:00:04Z'])('refuses %j', (bad) => {
    expect(() => timestampToNanos(bad)).toThrow(TypeError);
  });
});

describe('createStalenessGuard', () => {
  it('applies newer and equal updates and skips older ones, per key', async () => {
    const guard = createStalenessGuard();
    const applied: string[] = [];
    const apply = (label: string) => () => void applied.push(label);
    expect(await guard.run('order:1', '2025-03-14T05:00:02Z', apply('t2'))).toEqual({ applied: true, value: undefined });
    expect(await guard.run('order:1', '2025-03-14T05:00:01Z', apply('t1'))).toEqual({ applied: false, reason: 'stale', latest: '2025-03-14T05:00:02Z' });
    expect(await guard.run('order:1', '2025-03-14T05:00:02Z', apply('t2-again'))).toMatchObject({ applied: true });
    expect(await guard.run('order:2', '2025-03-14T05:00:01Z', apply('other-entity'))).toMatchObject({ applied: true });
    expect(applied).toEqual(['t2', 't2-again', 'other-entity']);
    expect(await guard.isStale('order:1', '2025-03-14T05:00:01.999Z')).toBe(true);
    expect(await guard.isStale('order:1', '2025-03-14T05:00:03Z')).toBe(false);
  });

  it('does not record a failed update, so its retry is not stale', async () => {
    const guard = createStalenessGuard();
    await expect(guard.run('k', '2025-03-14T05:00:02Z', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await guard.run('k', '2025-03-14T05:00:01Z', () => 'older but first to succeed')).toEqual({ applied: true, value: 'older but first to succeed' });
    expect(await guard.run('k', '2025-03-14T05:00:02Z', () => 'retry')).toEqual({ applied: true, value: 'retry' });
  });

  it('serialises concurrent updates of one key so an older one cannot slip in', async () => {
    // A store that yields on every call, to interleave the two runs if the guard did not queue them.
    const map = new Map<string, string>();
    const store: StalenessStore = {
      get: async (key) => (await Promise.resolve(), map.get(key)),
      set: async (key, value) => void (await Promise.resolve(), map.set(key, value)),
    };
    const guard = createStalenessGuard({ store });
    const order: string[] = [];
    const [newer, older] = await Promise.all([
      guard.run('k', '2025-03-14T05:00:02Z', async () => void order.push('newer')),
      guard.run('k', '2025-03-14T05:00:01Z', async () => void order.push('older')),
    ]);
    expect(newer.applied).toBe(true);
    expect(older.applied).toBe(false);
    expect(order).toEqual(['newer']);
    expect(map.get('k')).toBe('2025-03-14T05:00:02Z');
  });
});
