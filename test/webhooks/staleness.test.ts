import { describe, expect, it } from 'vitest';
import { createStalenessGuard, MemoryStalenessStore, timestampToNanos, type StalenessStore } from '../../src/webhooks/staleness.js';

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

describe('issue 38: timestampToNanos, exact values and both ends of the format', () => {
  it('counts nanoseconds from the epoch: a short fraction is padded, a long one cut at nine digits', () => {
    expect(timestampToNanos('1970-01-01T00:00:01Z')).toBe(1_000_000_000n);
    expect(timestampToNanos('1970-01-01T00:00:01.5Z')).toBe(1_500_000_000n);
    expect(timestampToNanos('1970-01-01T00:00:01.000000007Z')).toBe(1_000_000_007n);
    expect(timestampToNanos('1970-01-01T00:00:01.0000000079Z')).toBe(1_000_000_007n);
    expect(timestampToNanos('1970-01-01T01:00:01+01:00')).toBe(1_000_000_000n);
    expect(timestampToNanos('1969-12-31T23:00:01-01:00')).toBe(1_000_000_000n);
  });

  it('reads the T and Z in either case', () => {
    expect(timestampToNanos('2025-03-14t05:00:04.5z')).toBe(timestampToNanos('2025-03-14T05:00:04.500Z'));
  });

  it.each([' 2025-03-14T05:00:04Z', '2025-03-14T05:00:04Zx', 'x2025-03-14T05:00:04Z', '2025-03-14T05:00:04.Z', '2025-03-14T05:00:04+0530', '2025-03-14 05:00:04Z'])('refuses %j (anchored, one shape)', (bad) => {
    expect(() => timestampToNanos(bad)).toThrow(new TypeError(`staleness guard: not an ISO 8601 date-time with offset: ${JSON.stringify(bad)}`));
  });

  it('refuses a value that is not a string with a TypeError, not a crash of its own', () => {
    expect(() => timestampToNanos(1741928404000 as never)).toThrow(new TypeError('staleness guard: not an ISO 8601 date-time with offset: 1741928404000'));
  });
});

describe('issue 38: MemoryStalenessStore forgets the least recently updated key past its bound, not at it', () => {
  it('keeps exactly maxEntries keys, drops the oldest on the next one', () => {
    const store = new MemoryStalenessStore(2);
    store.set('a', '1');
    store.set('b', '2');
    expect([store.get('a'), store.get('b')]).toEqual(['1', '2']);
    store.set('c', '3');
    expect([store.get('a'), store.get('b'), store.get('c')]).toEqual([undefined, '2', '3']);
  });

  it('an update makes a key the most recent, so another key goes first', () => {
    const store = new MemoryStalenessStore(2);
    store.set('a', '1');
    store.set('b', '2');
    store.set('a', '3');
    store.set('c', '4');
    expect([store.get('a'), store.get('b'), store.get('c')]).toEqual(['3', undefined, '4']);
  });
});

describe('issue 38: the staleness guard on both sides of "newer"', () => {
  /** A store that records every write. */
  function countingStore() {
    const map = new Map<string, string>();
    const writes: string[] = [];
    const store: StalenessStore = { get: (key) => map.get(key), set: (key, value) => void (writes.push(`${key}=${value}`), map.set(key, value)) };
    return { store, writes };
  }

  it('writes the store only for a newer timestamp: not for an equal one, not for an older one', async () => {
    const { store, writes } = countingStore();
    const guard = createStalenessGuard({ store });
    expect(await guard.run('k', '2025-03-14T05:00:02Z', () => 'first')).toEqual({ applied: true, value: 'first' });
    expect(await guard.run('k', '2025-03-14T05:00:02.000Z', () => 'equal')).toEqual({ applied: true, value: 'equal' });
    expect(await guard.run('k', '2025-03-14T05:00:01.999999999Z', () => 'older')).toEqual({ applied: false, reason: 'stale', latest: '2025-03-14T05:00:02Z' });
    expect(await guard.run('k', '2025-03-14T05:00:02.000000001Z', () => 'newer')).toEqual({ applied: true, value: 'newer' });
    expect(writes).toEqual(['k=2025-03-14T05:00:02Z', 'k=2025-03-14T05:00:02.000000001Z']);
  });

  it('isStale: unknown key no, equal no, one nanosecond older yes, newer no', async () => {
    const guard = createStalenessGuard();
    expect(await guard.isStale('k', '2025-03-14T05:00:02Z')).toBe(false);
    await guard.run('k', '2025-03-14T05:00:02Z', () => undefined);
    expect(await guard.isStale('k', '2025-03-14T05:00:02.000Z')).toBe(false);
    expect(await guard.isStale('k', '2025-03-14T05:00:01.999999999Z')).toBe(true);
    expect(await guard.isStale('k', '2025-03-14T05:00:02.000000001Z')).toBe(false);
  });

  it('pending(): each key with an update running or queued, forgotten once its last update settles (failed ones too)', async () => {
    const guard = createStalenessGuard();
    expect(guard.pending()).toBe(0);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = guard.run('a', '2025-03-14T05:00:01Z', () => gate);
    const queued = guard.run('a', '2025-03-14T05:00:02Z', () => 'second');
    const other = guard.run('b', '2025-03-14T05:00:01Z', () => 'b');
    const failing = guard.run('c', '2025-03-14T05:00:01Z', () => Promise.reject(new Error('handler failed')));
    expect(guard.pending()).toBe(3);
    await other;
    await expect(failing).rejects.toThrow('handler failed');
    open();
    await Promise.all([first, queued]);
    // The entry is dropped a tick after the call settles (the cleanup chains on the settled promise).
    await new Promise((resolve) => setImmediate(resolve));
    expect(guard.pending()).toBe(0);
    // Many keys seen, none kept.
    await Promise.all(Array.from({ length: 1000 }, (_, i) => guard.run(`k${i}`, '2025-03-14T05:00:01Z', () => i)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(guard.pending()).toBe(0);
  });

  it('refuses a bad timestamp before running the update', async () => {
    const guard = createStalenessGuard();
    let ran = false;
    await expect(guard.run('k', 'yesterday', () => void (ran = true))).rejects.toThrow(TypeError);
    expect(ran).toBe(false);
  });

  it('a call made while an earlier one for the key still runs waits for it, also after a finished call freed its place', async () => {
    const guard = createStalenessGuard();
    const order: string[] = [];
    await guard.run('k', '2025-03-14T05:00:01Z', () => void order.push('t1'));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow = guard.run('k', '2025-03-14T05:00:03Z', async () => {
      order.push('t3 start');
      await gate;
      order.push('t3 end');
    });
    // Let the slow update start, then send an older one for the same entity while it runs.
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['t1', 't3 start']);
    const older = guard.run('k', '2025-03-14T05:00:02Z', () => void order.push('t2'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['t1', 't3 start']);
    open();
    expect(await slow).toMatchObject({ applied: true });
    expect(await older).toEqual({ applied: false, reason: 'stale', latest: '2025-03-14T05:00:03Z' });
    expect(order).toEqual(['t1', 't3 start', 't3 end']);
  });

  it('three calls in flight for one key run in order, the middle one finishing before the last starts', async () => {
    const guard = createStalenessGuard();
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = guard.run('k', '2025-03-14T05:00:01Z', () => void order.push('t1'));
    const second = guard.run('k', '2025-03-14T05:00:03Z', async () => {
      order.push('t3 start');
      await gate;
      order.push('t3 end');
    });
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    const third = guard.run('k', '2025-03-14T05:00:02Z', () => void order.push('t2'));
    await new Promise((resolve) => setImmediate(resolve));
    open();
    await Promise.all([second, third]);
    expect(await third).toMatchObject({ applied: false, reason: 'stale' });
    expect(order).toEqual(['t1', 't3 start', 't3 end']);
  });
});

describe('issue 38: timestampToNanos reads strings only', () => {
  it('refuses an object even when its text is a valid timestamp', () => {
    const disguised = { toString: () => '2025-03-14T05:00:04Z' };
    expect(() => timestampToNanos(disguised as never)).toThrow(TypeError);
  });
});
